// An exec tool call against a bare child_process.spawn of the same command, in one process,
// interleaved (alternating which goes first) so drift and warm-up hit both sides alike.
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { interleave, median } from "./util.js";
import { createExecHandler } from "../../templates/kinds/exec/index.js";

export interface BenchRow {
  name: string;
  ratio: number;
  detail: string;
}

/**
 * The least a caller must do: spawn, read both pipes, wait for close. Same environment as the
 * tool's child (PATH only), so the two sides run the same program the same way (node, for one,
 * starts slower with a larger environment, e.g. NODE_OPTIONS).
 */
function bare(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = process.env.PATH === undefined ? {} : { PATH: process.env.PATH };
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => chunks.push(b));
    child.stderr.on("data", (b: Buffer) => chunks.push(b));
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

async function compare(name: string, argv: string[], rounds: number): Promise<BenchRow> {
  const handler = createExecHandler({ tool: name, argv: argv.map((a) => [a]), fields: {} });
  const ctx = { signal: new AbortController().signal, era: "2026-07-28" as const };
  const viaTool = async () => {
    const out = await handler({}, ctx);
    if (out.isError) throw new Error(`bench command failed: ${out.text}`);
  };
  const viaSpawn = () => bare(argv[0], argv.slice(1));
  // Interleaved, alternating which goes first, after untimed warm-up runs (JIT, connection pool).
  const [tool, base] = await interleave([viaTool, viaSpawn], rounds, 5);
  const mt = median(tool);
  const mb = median(base);
  return {
    name: `exec call vs bare spawn: ${argv.join(" ")}`,
    ratio: mt / mb,
    detail: `median ${mt.toFixed(2)} ms vs ${mb.toFixed(2)} ms over ${rounds} interleaved rounds (target ≤ 1.2×)`,
  };
}

export async function benchExec(rounds = 200): Promise<BenchRow[]> {
  return [
    await compare("true", ["/bin/true"], rounds),
    await compare("node", [process.execPath, "-e", "0"], Math.max(10, Math.round(rounds / 3))),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const row of await benchExec()) console.log(`${row.name}: ${row.ratio.toFixed(3)}× (${row.detail})`);
}
