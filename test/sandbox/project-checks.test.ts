// The shipped project-checks server (out/project-checks, generated from specs/project-checks.yaml),
// run as a real process (as root here and in CI) against a git project: `run_tests` has
// `writable: ["."]`, and a test that plants a git hook, rewrites git's config or an editor task,
// or puts a command on npm's PATH must fail at it (one it creates where nothing was is removed after the call), while the test run itself works and git's
// index and objects stay writable (a commit made inside the sandbox succeeds).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { requireBubblewrap } from "./host.js";

const BUNDLE = resolve("out/project-checks/server.mjs");
type Sc = { exitCode: number | null; stdout: string; stderr: string };

// What the project's "test" does: commit, then try each write and print what happened.
const PLANT = `
const fs = require("fs");
const { execFileSync } = require("child_process");
fs.writeFileSync("src.txt", "changed by the tests\\n");
execFileSync("git", ["add", "src.txt"]);
execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "inside"]);
console.log("committed");
const tries = {
  hook: () => fs.writeFileSync(".git/hooks/pre-commit", "#!/bin/sh\\necho planted\\n", { mode: 0o755 }),
  config: () => fs.appendFileSync(".git/config", "[core]\\n\\thooksPath = evil\\n"),
  commondir: () => fs.writeFileSync(".git/commondir", "../evil-git\\n"),
  tasks: () => fs.writeFileSync(".vscode/tasks.json", "{\\"planted\\": true}\\n"),
  bin: () => fs.writeFileSync("node_modules/.bin/tsc", "#!/bin/sh\\necho planted\\n"),
  moveGit: () => fs.renameSync(".git", "git-moved"),
};
for (const [name, f] of Object.entries(tries)) {
  try { f(); console.log(name + ": written"); } catch (e) { console.log(name + ": " + e.code); }
}
fs.writeFileSync("src.txt", "changed by the tests\\n");
execFileSync("git", ["add", "src.txt"]);
execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "inside"]);
console.log("committed");
`;

let project: string;
let client: Client;
let stderr = "";

beforeAll(async () => {
  requireBubblewrap();
  project = realpathSync(mkdtempSync(join(tmpdir(), "kervan-project-checks-")));
  for (const d of [".vscode", "node_modules/.bin"]) mkdirSync(join(project, d), { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "p", private: true, scripts: { test: "node plant.js" } }));
  writeFileSync(join(project, "plant.js"), PLANT);
  writeFileSync(join(project, "src.txt"), "original\n");
  writeFileSync(join(project, ".vscode", "tasks.json"), "{}\n");
  writeFileSync(join(project, "node_modules", ".bin", "tsc"), "#!/bin/sh\necho tsc\n", { mode: 0o755 });
  const git = (...a: string[]) => execFileSync("git", a, { cwd: project, encoding: "utf8" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start");
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE], cwd: project, stderr: "pipe", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: project } });
  transport.stderr?.on("data", (b: Buffer) => (stderr += b.toString()));
  client = new Client({ name: "project-checks-test", version: "0.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`project-checks did not start: ${stderr || (err as Error).message}`);
  }
}, 60_000);

afterAll(async () => {
  await client?.close();
});

describe("project-checks run_tests, writable '.', server as uid " + process.getuid?.(), () => {
  it("a test cannot plant a git hook, git config, an editor task or a command on npm's PATH; it can commit", async () => {
    const res = await client.callTool({ name: "run_tests", arguments: {} }, { timeout: 120_000 });
    const sc = res.structuredContent as Sc;
    expect(sc.stdout, sc.stderr).toContain("committed");
    for (const name of ["hook", "config", "tasks", "bin", "moveGit"]) expect(sc.stdout).not.toContain(`${name}: written`);
    // .git/commondir did not exist, so the call could create it; it is removed when the call ends, and the result says so.
    expect(sc.stderr).toMatch(/kervan: removed .*\.git\/commondir/);
    expect(existsSync(join(project, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(join(project, ".git", "commondir"))).toBe(false);
    expect(readFileSync(join(project, ".git", "config"), "utf8")).not.toContain("hooksPath");
    expect(readFileSync(join(project, ".vscode", "tasks.json"), "utf8")).toBe("{}\n");
    expect(readFileSync(join(project, "node_modules", ".bin", "tsc"), "utf8")).toBe("#!/bin/sh\necho tsc\n");
    expect(existsSync(join(project, "git-moved"))).toBe(false);
    // The commit made inside the sandbox is there: git's index, objects and refs stayed writable.
    expect(execFileSync("git", ["log", "--format=%s", "-1"], { cwd: project, encoding: "utf8" }).trim()).toBe("inside");
  }, 150_000);
});
