// Exec calls under the OS sandbox. Kervan's own overhead: a sandboxed call against a bare spawn of
// bwrap doing the same OS work — exactly the arguments the call uses and, when the server runs as
// root, the same per-call pids cgroup steps around the spawn (cgroup.ts) — target ≤ 1.1×. As root,
// what those cgroup steps cost: the bare spawn with them against without (reported). And what the
// sandbox itself costs: a sandboxed call against the same call unsandboxed (reported, no target).
// Interleaved, alternating which goes first, medians.
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { interleave, median } from "./util.js";
import { createExecHandler, sandboxCgroupSteps, sandboxCommandLine, type ExecToolConfig } from "../../templates/kinds/exec/index.js";

export interface BenchRow {
  name: string;
  ratio: number;
  detail: string;
}

/** bwrap spawned directly with the call's system-call filter; with `cgroup`, wrapped in the per-call cgroup steps a call of that tool takes. */
function bare(argv: string[], cwd: string, cfg: ExecToolConfig, cgroup = true): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = process.env.PATH === undefined ? {} : { PATH: process.env.PATH };
    const steps = sandboxCgroupSteps(cfg, argv.slice(1), cgroup);
    const start = () => spawn(argv[0]!, steps.args, { stdio: ["ignore", "pipe", "pipe", ...steps.extraStdio], env, cwd, detached: true });
    const child = steps.aroundSpawn ? steps.aroundSpawn(start) : start();
    steps.spawned();
    child.stdout!.on("data", () => {});
    child.stderr!.on("data", () => {});
    steps.onSpawn?.(child, (why) => reject(new Error(why)));
    child.on("error", reject);
    child.on("close", (code) => {
      steps.done();
      if (code === 0) resolve();
      else reject(new Error(`bwrap exited with ${code}`));
    });
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
  const who = root ? "as root: both sides create the call's pids cgroup, start bwrap inside it and remove it afterwards" : `as uid ${process.getuid?.()}: no cgroup steps (RLIMIT_NPROC bounds the call)`;
  const [tool, spawnBwrap] = await interleave([inSandbox, () => bare(argv, cwd, sandboxed)], rounds, 5);
  const [tool2, unsandboxed] = await interleave([inSandbox, plain], rounds, 5);
  const [mt, mb, mt2, mu] = [median(tool), median(spawnBwrap), median(tool2), median(unsandboxed)];
  const rows: BenchRow[] = [
    {
      name: "sandboxed exec call vs bare spawn of bwrap (same argv, same OS steps)",
      ratio: mt / mb,
      detail: `median ${mt.toFixed(2)} ms vs ${mb.toFixed(2)} ms over ${rounds} interleaved rounds (target ≤ 1.1×); ${who}.`,
    },
  ];
  if (root) {
    const [withSteps, without] = await interleave([() => bare(argv, cwd, sandboxed), () => bare(argv, cwd, sandboxed, false)], rounds, 5);
    const [mw, mo] = [median(withSteps), median(without)];
    rows.push({
      name: "root's per-call pids cgroup: bare bwrap with the cgroup steps vs without",
      ratio: mw / mo,
      detail: `median ${mw.toFixed(2)} ms vs ${mo.toFixed(2)} ms over ${rounds} interleaved rounds; what bounding a root server's calls costs, reported without a target.`,
    });
  }
  rows.push({
    name: "sandboxed vs unsandboxed exec call (cat)",
    ratio: mt2 / mu,
    detail: `median ${mt2.toFixed(2)} ms vs ${mu.toFixed(2)} ms over ${rounds} interleaved rounds; what the namespaces cost, reported without a target.`,
  });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const row of await benchSandbox()) console.log(`${row.name}: ${row.ratio.toFixed(3)}× (${row.detail})`);
}
