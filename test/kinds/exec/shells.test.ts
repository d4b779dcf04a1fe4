// One list of shells and inline interpreters decides both what AUDIT.md calls "runs a shell" (the
// exec kind's effects) and whose script the read-only lint (KV607) reads: the two cannot disagree.
import { describe, expect, it } from "vitest";
import { execKind } from "../../../generator/kinds/exec/index.js";
import type { ExecIRConfig } from "../../../generator/kinds/exec/normalize.js";
import type { ToolOf } from "../../../generator/model/ir.js";

function effects(argv: string[]) {
  const config: ExecIRConfig = { argv: argv.map((a) => [a]), fields: {}, env: { pass: [], set: {} }, timeoutMs: 1, killGraceMs: 1, maxOutputBytes: 1, concurrency: 1, queue: 0, progressIntervalMs: 0, okExitCodes: [0], sandbox: { mode: "none" } };
  const tool: ToolOf<ExecIRConfig> = { name: "t", description: "", annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }, inputSchema: {}, maxOutputChars: 100, origin: { file: "", pointer: "" }, kind: "exec", config };
  return execKind.effects(tool);
}

describe("shells and inline interpreters", () => {
  const shells = ["sh", "bash", "dash", "ash", "zsh", "fish", "pwsh", "/bin/ash", "/usr/bin/fish"];
  for (const shell of shells) {
    it(`${shell} -c: runs a shell, and its script is read for changes`, () => {
      const e = effects([shell, "-c", "rm -f cache.db"]);
      expect(e.shell).toBe(true);
      expect(e.changes).toBe("runs rm (in its shell script)");
      const quiet = effects([shell, "-c", "ls -la"]);
      expect(quiet.shell).toBe(true);
      expect(quiet.changes).toBeUndefined();
    });
  }

  const inline: [string, string, string][] = [
    ["python3", "-c", "import os; os.remove('x')"],
    ["python", "-c", "open('x', 'w').write('y')"],
    ["node", "-e", "require('fs').unlinkSync('x')"],
    ["perl", "-e", "unlink 'x'"],
    ["ruby", "-e", "File.delete('x')"],
  ];
  for (const [program, flag, script] of inline) {
    it(`${program} ${flag}: runs an inline script, and its writes are seen`, () => {
      const e = effects([program, flag, script]);
      expect(e.shell).toBe(true);
      expect(e.changes).toMatch(new RegExp(`^runs ${program} with a script`));
      expect(effects([program, flag, "print(1)"]).changes).toBeUndefined();
    });
  }

  it("a script file or a plain command is no inline script", () => {
    expect(effects(["python3", "tool.py"]).shell).toBe(false);
    expect(effects(["node", "server.js"]).shell).toBe(false);
    expect(effects(["cat", "--", "x"]).shell).toBe(false);
    expect(effects(["git", "push"]).changes).toBe("runs git push");
  });
});
