// Runs the real CLI (`bin/kervan.mjs import ...`) as a child process: exit code, stdout, stderr.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..", "..");

export function kervan(args: string[], cwd = ROOT): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "kervan.mjs"), ...args], { cwd, encoding: "utf8", timeout: 120_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
