// Timings of the pattern-budget behaviour that tests assert only by answers and order: when a
// catastrophic pattern is refused, and how long a cheap validate_json call waits while catastrophic
// ones burn their budgets (both against the 500 ms budget).
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { createValidateJsonHandler } from "../../templates/kinds/validate_json/handler.js";

export interface BenchRow {
  name: string;
  ratio: number;
  detail: string;
}

const ctx = () => ({ signal: new AbortController().signal, era: "2026-07-28" as const });
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function validateUnderLoad(): Promise<BenchRow[]> {
  const script = await bundleEntry(fileURLToPath(new URL("../kinds/validate_json/worker-entry.ts", import.meta.url)));
  const h = createValidateJsonHandler({ workerScript: script, maxWorkers: 2 });
  const evil = { output: JSON.stringify("a".repeat(40) + "b"), schema: { type: "string", pattern: "^(a+)+$" } };
  const cheap = { output: '"abcd"', schema: { pattern: "^(ab|cd)+$" } };
  try {
    await h(cheap, ctx());
    const t0 = performance.now();
    await h(evil, ctx());
    const refusal = performance.now() - t0;
    const bad = Array.from({ length: 8 }, () => h(evil, ctx()));
    const t1 = performance.now();
    await h(cheap, ctx());
    const waited = performance.now() - t1;
    await Promise.all(bad);
    return [
      { name: "catastrophic pattern refused, vs the 500 ms budget", ratio: refusal / 500, detail: `median ${fmt(refusal)} vs ${fmt(500)} (target ≤ 1.5×)` },
      { name: "cheap call while 8 catastrophic calls run (2 workers), vs the budget", ratio: waited / 500, detail: `median ${fmt(waited)} vs ${fmt(500)} (target ≤ 1×)` },
    ];
  } finally {
    await h.close();
  }
}

export async function benchHardening(): Promise<BenchRow[]> {
  return validateUnderLoad();
}
