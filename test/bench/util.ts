// Shared pieces of the benchmarks: medians, interleaved timing, child processes, temp folders and
// the result table. Every number the bench reports is a ratio against a baseline timed in the
// same run, so nothing here knows about absolute budgets.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The shape every bench module returns (exec.bench.ts, http.bench.ts, ...). */
export interface BenchRow {
  name: string;
  ratio: number;
  detail: string;
}

export interface Target {
  /** ≥: a rate ratio (higher is better) with a floor. */
  op: "≤" | "<" | "≥";
  value: number;
  /** Where the target comes from, when it is not issue 2. */
  note?: string;
}

/** A row of the final table. */
export interface Row {
  section: string;
  name: string;
  ratio: number;
  target?: Target;
  /** The ratio is of rates (operations per second): higher is better. */
  throughput?: boolean;
  /** Absolute medians, subject then baseline, already formatted. */
  subject?: string;
  baseline?: string;
  detail?: string;
}

export const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const NODE = process.execPath;

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function met(ratio: number, t: Target | undefined): boolean | undefined {
  if (!t || !Number.isFinite(ratio)) return undefined;
  return t.op === "≤" ? ratio <= t.value : t.op === "≥" ? ratio >= t.value : ratio < t.value;
}

export const ms = (x: number): string =>
  !Number.isFinite(x) ? "n/a" : x >= 10_000 ? `${(x / 1000).toFixed(2)} s` : x >= 100 ? `${x.toFixed(0)} ms` : x >= 1 ? `${x.toFixed(2)} ms` : `${(x * 1000).toFixed(0)} µs`;

/**
 * Times each subject `rounds` times after `warmup` untimed runs of each, rotating which one goes
 * first every round so drift, caches and CPU contention hit all of them alike. A subject that
 * resolves with a number has measured itself (e.g. spawn -> first answer, leaving out the
 * teardown); otherwise its whole run is timed. Returns the samples per subject, in milliseconds.
 */
export async function interleave(subjects: Array<() => Promise<number | void>>, rounds: number, warmup: number): Promise<number[][]> {
  for (let i = 0; i < warmup; i++) for (const s of subjects) await s();
  const samples = subjects.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < subjects.length; k++) {
      const j = (r + k) % subjects.length;
      const t = performance.now();
      const own = await subjects[j]!();
      samples[j]!.push(typeof own === "number" ? own : performance.now() - t);
    }
  }
  return samples;
}

/** Runs a command to completion; rejects with its stderr when it exits non-zero. */
export function run(command: string, args: string[], options: SpawnOptions = {}): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr?.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolvePromise({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code ?? signal}\n${(stderr || stdout).slice(-2000)}`));
    });
  });
}

/** Waits for a child to be gone (no-op when it already is). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once("exit", () => r()));
}

/**
 * Newline-delimited lines from a child's stdout, one at a time: `next()` resolves with the next
 * line. The benchmarks send one request and wait for its answer, so one waiter is enough.
 */
export class LineReader {
  private buf = "";
  private lines: string[] = [];
  private waiter: ((line: string) => void) | undefined;
  private failer: ((e: Error) => void) | undefined;
  constructor(child: ChildProcess, what: string) {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      this.buf += chunk;
      let i;
      while ((i = this.buf.indexOf("\n")) >= 0) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 1);
        if (this.waiter) {
          const w = this.waiter;
          this.waiter = this.failer = undefined;
          w(line);
        } else this.lines.push(line);
      }
    });
    child.on("exit", (code, signal) => this.failer?.(new Error(`${what} exited (${code ?? signal}) before answering`)));
  }
  next(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((res, rej) => {
      this.waiter = res;
      this.failer = rej;
    });
  }
}

const tempDirs: string[] = [];

/** A fresh temp folder, removed by `cleanupTemp()`. */
export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), `kervan-bench-${prefix}-`));
  tempDirs.push(d);
  return d;
}

export function cleanupTemp(): void {
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** The 2026-07-28 era `_meta` every request carries. */
export const META_2026 = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

export function request(id: number, method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params: { _meta: META_2026, ...params } }) + "\n";
}

/** Parses a JSON-RPC answer and fails loudly on a protocol error, so a broken server never looks fast. */
export function answer(line: string, id: number): Record<string, unknown> {
  const msg = JSON.parse(line) as { id?: unknown; result?: Record<string, unknown>; error?: unknown };
  if (msg.id !== id || !msg.result) throw new Error(`unexpected answer to request ${id}: ${line.slice(0, 300)}`);
  return msg.result;
}

/** Pulls "target ≤ 1.2×" out of a bench module's detail text, so its own target is shown. */
export function targetFromDetail(detail: string): Target | undefined {
  const m = /target\s*([≤<≥])\s*([\d.]+)\s*×/.exec(detail);
  return m ? { op: m[1] as Target["op"], value: Number(m[2]) } : undefined;
}

function pad(s: string, n: number, right = false): string {
  const len = [...s].length;
  return len >= n ? s : right ? " ".repeat(n - len) + s : s + " ".repeat(n - len);
}

/** The result table: one block per section, ratio, target, met, medians. */
export function table(rows: Row[]): string {
  const head = ["measurement", "ratio", "target", "met", "subject", "baseline"];
  const cells = rows.map((r) => {
    const ok = met(r.ratio, r.target);
    return [
      r.name,
      Number.isFinite(r.ratio) ? `${r.ratio.toFixed(r.ratio < 0.1 ? 3 : 2)}×${r.throughput ? " ↑" : ""}` : "n/a",
      r.target ? `${r.target.op} ${r.target.value}×${r.target.note ? ` (${r.target.note})` : ""}` : "—",
      ok === undefined ? "—" : ok ? "yes" : "NO",
      r.subject ?? "",
      r.baseline ?? "",
    ];
  });
  const widths = head.map((h, i) => Math.max([...h].length, ...cells.map((c) => [...c[i]!].length)));
  const line = (c: string[]) => c.map((x, i) => pad(x, widths[i]!, i === 1 || i >= 4)).join("  ").trimEnd();
  const out: string[] = [];
  let section = "";
  rows.forEach((r, i) => {
    if (r.section !== section) {
      section = r.section;
      out.push("", `## ${section}`, line(head), widths.map((w) => "-".repeat(w)).join("  "));
    }
    out.push(line(cells[i]!));
  });
  return out.join("\n");
}
