// Generates test/fixtures/prompts/prompts.yaml into a temporary folder with the real CLI; returns the bundle.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function generatePrompts(): string {
  const out = mkdtempSync(join(tmpdir(), "kervan-prompts-"));
  const gen = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", "test/fixtures/prompts/prompts.yaml", "--out", out], { encoding: "utf8" });
  if (gen.status !== 0) throw new Error(`kervan gen failed:\n${gen.stdout}${gen.stderr}`);
  return join(out, "prompt-desk/server.mjs");
}
