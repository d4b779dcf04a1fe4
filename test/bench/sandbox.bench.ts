// Exec calls under the OS sandbox. Kervan's own overhead: a sandboxed call against a bare spawn of
// bwrap with exactly the arguments the call uses (target ≤ 1.1×). And what the sandbox itself
// costs: a sandboxed call against the same call unsandboxed (reported, no target). Interleaved,
// alternating which goes first, medians.
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { interleave, median } from "./util.js";
import { createExecHandler, sandboxCommandLine, type ExecToolConfig } from "../../templates/kinds/exec/index.js";

export interface BenchRow {
  name: string;
  ratio: number;
  detail: string;
}

function bare(argv: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = process.env.PATH === undefined ? {} : { PATH: process.env.PATH };
    const child = spawn(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "pipe"], env, cwd, detached: true });
    child.stdout.on("data", () => {});
    child.stderr.on("data", () => {});
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`bwrap exited with ${code}`))));
  });
}

export async function benchSandbox(rounds = 100): Promise<BenchRow[]> {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), "kervan-bench-sandbox-")));
  writeFileSync(join(cwd, "file.txt"), "hello\n");
  const base: ExecToolConfig = { tool: "cat", argv: [["cat"], ["file.txt"]], fields: {}, cwd, paths: { fields: [], deny: [".env", ".git"] } };
  const sandboxed: ExecToolConfig = { ...base, sandbox: { mode: "bubblewrap" } };
  const ctx = { signal: new AbortController().signal, era: "2026-07-28" as const };
  const call = (h: ReturnType<typeof createExecHandler>) => async () => {
    const out = await h({}, ctx);
    if ((out.value as { exitCode: number | null }).exitCode === null) throw new Error(`bench command failed: ${out.text}`);
  };
  const inSandbox = call(createExecHandler(sandboxed));
  const plain = call(createExecHandler(base));
  const argv = sandboxCommandLine(sandboxed, "cat", ["file.txt"])!;
  const root = process.getuid?.() === 0;
  const [tool, spawnBwrap] = await interleave([inSandbox, () => bare(argv, cwd)], rounds, 5);
  const [tool2, unsandboxed] = await interleave([inSandbox, plain], rounds, 5);
  const [mt, mb, mt2, mu] = [median(tool), median(spawnBwrap), median(tool2), median(unsandboxed)];
  const gate = root ? " The server runs as root, so each call also joins a pids cgroup of its own (mkdir, two writes, a pipe round trip): that is in the call's time, not the bare side's." : "";
  return [
    {
      name: "sandboxed exec call vs bare spawn of bwrap (same argv)",
      ratio: mt / mb,
      detail: `median ${mt.toFixed(2)} ms vs ${mb.toFixed(2)} ms over ${rounds} interleaved rounds (target ≤ 1.1×).${gate}`,
    },
    {
      name: "sandboxed vs unsandboxed exec call (cat)",
      ratio: mt2 / mu,
      detail: `median ${mt2.toFixed(2)} ms vs ${mu.toFixed(2)} ms over ${rounds} interleaved rounds; what the namespaces cost, reported without a target.`,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const row of await benchSandbox()) console.log(`${row.name}: ${row.ratio.toFixed(3)}× (${row.detail})`);
}
