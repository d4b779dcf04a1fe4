// npm run fuzz -- --minutes N [--only NAME]: runs every property in properties/ (the same ones
// `npm test` runs bounded) round-robin with fresh seeds until N minutes are spent, restarting a
// property's server after a failure, then prints what it found: runs, crashes, hangs, internal
// errors, malformed answers (each with seed and counterexample) and the peak memory of the servers
// and of this runner. Exit code 1 when anything was found.
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { FuzzFailure, type FailureKind, type FuzzProperty } from "./property.js";
import { loadProperties } from "./registry.js";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const minutes = Number(option("--minutes") ?? "1");
if (!(minutes > 0)) {
  process.stderr.write("usage: npm run fuzz -- --minutes N [--only NAME]\n");
  process.exit(2);
}

interface Found {
  property: string;
  kind: FailureKind | "error";
  message: string;
  seed: number;
  counterexample: string;
}

/** Peak resident memory (VmHWM) of a live process, in KiB; undefined once it is gone. */
function peakKiB(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Long bracket runs (deep nesting) shown as a count. */
const compact = (s: string) => s.replace(/\[{20,}|\]{20,}/g, (m) => `${m[0]}×${m.length}`);

const properties = await loadProperties(option("--only"));
// Every property gets a slice in each round, so a short run still reaches all of them.
const SLICE_MS = Math.min(60_000, (minutes * 60_000) / Math.max(1, properties.length));
const deadline = Date.now() + minutes * 60_000;
const runs = new Map<string, number>();
const found: Found[] = [];
let serverPeakKiB = 0;
let runnerPeak = 0;
const sampleRunner = () => (runnerPeak = Math.max(runnerPeak, process.memoryUsage().rss));
const sampler = setInterval(sampleRunner, 1000);

async function slice(p: FuzzProperty, ms: number): Promise<void> {
  const ctx = await p.setup();
  const pids = p.pids?.(ctx) ?? [];
  const watch = setInterval(() => pids.forEach((pid) => (serverPeakKiB = Math.max(serverPeakKiB, peakKiB(pid) ?? 0))), 1000);
  const seed = (Math.random() * 2 ** 31) | 0;
  try {
    const details = await fc.check(
      fc.asyncProperty(p.arbitrary, (v) => p.check(ctx, v)),
      { seed, numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: ms, markInterruptAsFailure: false, endOnFailure: true },
    );
    runs.set(p.name, (runs.get(p.name) ?? 0) + details.numRuns);
    if (details.failed) {
      const err = details.errorInstance;
      found.push({
        property: p.name,
        kind: err instanceof FuzzFailure ? err.kind : "error",
        message: err instanceof Error ? (err.stack ?? err.message).split("\n").slice(0, 6).join("\n") : String(err),
        seed,
        counterexample: compact(JSON.stringify(details.counterexample)).slice(0, 1500),
      });
      process.stderr.write(`fuzz: ${p.name}: FOUND ${found.at(-1)!.kind} (seed ${seed})\n`);
    }
  } finally {
    pids.forEach((pid) => (serverPeakKiB = Math.max(serverPeakKiB, peakKiB(pid) ?? 0)));
    clearInterval(watch);
    await p.teardown(ctx).catch(() => undefined);
  }
}

const started = Date.now();
while (Date.now() < deadline) {
  for (const { property } of properties) {
    const left = deadline - Date.now();
    if (left <= 1000) break;
    process.stderr.write(`fuzz: ${property.name} for ${Math.round(Math.min(SLICE_MS, left) / 1000)} s\n`);
    await slice(property, Math.min(SLICE_MS, left));
  }
}
clearInterval(sampler);
sampleRunner();

const count = (k: string) => found.filter((f) => f.kind === k).length;
const lines = [
  `fuzz: ${((Date.now() - started) / 60_000).toFixed(1)} minutes, ${properties.length} properties`,
  ...properties.map(({ property }) => `  ${property.name}: ${runs.get(property.name) ?? 0} inputs`),
  `crashes: ${count("crash")}, hangs: ${count("hang")}, internal errors: ${count("internal")}, malformed answers: ${count("malformed")}, other failures: ${count("error")}`,
  `peak memory: servers ${(serverPeakKiB / 1024).toFixed(0)} MiB (VmHWM), runner ${(runnerPeak / 2 ** 20).toFixed(0)} MiB (RSS)`,
  ...found.map((f) => `\n[${f.kind}] ${f.property} (seed ${f.seed})\n${f.message}\ncounterexample: ${f.counterexample}`),
];
process.stdout.write(lines.join("\n") + "\n");
process.exit(found.length ? 1 : 0);
