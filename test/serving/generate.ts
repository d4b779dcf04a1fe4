// Generates a fixture spec into a temporary folder with the real pipeline (the CLI), once per spec.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const built = new Map<string, string>();

/** Returns the path of the bundled server.mjs generated from test/fixtures/serving/<name>.yaml. */
export function generateFixture(name: string): string {
  const cached = built.get(name);
  if (cached) return cached;
  const out = mkdtempSync(join(tmpdir(), "kervan-serving-"));
  const spec = resolve("test/fixtures/serving", `${name}.yaml`);
  const run = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", spec, "--out", out], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`kervan gen ${spec} failed:\n${run.stdout}${run.stderr}`);
  const server = join(out, `${name}-fixture`, "server.mjs");
  built.set(name, server);
  return server;
}
