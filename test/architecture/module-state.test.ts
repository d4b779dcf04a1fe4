// No stage keeps state in a module: a build's state lives in its Build (generator/shared/build.ts),
// so a --watch process frees it with each build. The scan (module-state.ts) finds every top-level
// `let`/`var` and every constant holding a fresh mutable container in generator/.
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { moduleState } from "./module-state.js";

/**
 * Known module-level state, each with why it is there; no stage holds any. The command line's two
 * are the process's (a process runs one command, whose state they are), and so is the kinds
 * registry's list of kinds added at run time (a plug-in, or a test's fixture kind): every build of
 * the process reads it and none adds to it. The list only shrinks: a new entry fails the test below.
 */
const ALLOWED = [
  "generator/cli.ts: module-level let current", // the one running command of the process
  "generator/cli/output.ts: module-level let run", // the running command's output mode
  "generator/kinds/index.ts: module-level empty array added", // kinds added to the process (a plug-in, the tests' fixture kind)
];

const withoutLine = (s: string) => s.replace(/:\d+:/, ":");

describe("module-level state", () => {
  it("no module of generator/ holds mutable state beyond the documented list", () => {
    const found = moduleState("generator").map(withoutLine);
    expect(found.filter((f) => !ALLOWED.includes(f))).toEqual([]);
  });

  it("the scan finds a module-level let, an empty Map and an empty array, and passes constant tables and lazily computed constants", () => {
    const root = mkdtempSync(join(tmpdir(), "kervan-state-"));
    try {
      mkdirSync(join(root, "stage"));
      writeFileSync(join(root, "stage/a.ts"), 'let n = 0;\nconst cache = new Map<string, string>();\nconst list: string[] = [];\nconst TABLE = new Set(["a"]);\nconst K = 3;\nconst table = once(() => new Map());\nexport function f() { let local = 1; return local + n + K; }\n');
      expect(moduleState(root).map((f) => f.slice(root.length + 1))).toEqual(["stage/a.ts:1: module-level let n", "stage/a.ts:2: module-level new Map cache", "stage/a.ts:3: module-level empty array list"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
