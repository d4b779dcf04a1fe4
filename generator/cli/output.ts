// What the reporting commands print, for people and for CI. `--json` (gen, import, audit, changelog,
// deploy) prints one JSON object on stdout instead of text: the command's results, one object per
// diagnostic, and the lines it would have printed (the shape is documented in docs/ci.md). Text
// output is coloured on a terminal, never when NO_COLOR is set or the stream is not a TTY.
import type { Diagnostic } from "../model/diagnostic.js";

/** The commands that take `--json`. */
export const JSON_COMMANDS = new Set(["gen", "import", "audit", "changelog", "deploy"]);
export const JSON_OPTION = { flag: "--json", help: "print one JSON object on stdout: results and diagnostics (docs/ci.md)" };
/** The version of the JSON shape; raised only when a field changes meaning or goes away. */
export const JSON_SHAPE = 1;

export interface DiagnosticJson {
  code: string;
  severity: "error" | "warning";
  file: string;
  /** 1-based; null when the problem has no place in a file. */
  line: number | null;
  column: number | null;
  /** JSON pointer into the spec document ("" is the whole document). */
  pointer: string;
  message: string;
  suggestion: string | null;
  notes: string[];
}

export interface JsonReport {
  kervan: typeof JSON_SHAPE;
  command: string;
  ok: boolean;
  exitCode: number;
  /** Command-specific results (docs/ci.md lists them by command). */
  result: Record<string, unknown>;
  diagnostics: DiagnosticJson[];
  /** The lines the command printed for people (progress, summaries), in order. */
  messages: string[];
  /** What the command printed as its output (AUDIT.md, a changelog), or null. */
  output: string | null;
  /** A usage error (exit 2) or an internal error (exit 70). */
  error?: { kind: "usage" | "internal"; message: string };
}

export function diagnosticJson(d: Diagnostic): DiagnosticJson {
  const { file, line, column, pointer } = d.location;
  return {
    code: d.code,
    severity: d.severity,
    file,
    line: line || null,
    column: line ? column : null,
    pointer,
    message: d.message,
    suggestion: d.suggestion ?? null,
    notes: d.notes ?? [],
  };
}

interface Stream {
  isTTY?: boolean;
}

/** Colour for text on `stream`: a terminal, no NO_COLOR (any non-empty value), TERM not dumb. */
export function useColour(stream: Stream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== "dumb";
}

const SGR = { red: 31, yellow: 33, cyan: 36, bold: 1, dim: 2 } as const;
export type Paint = (style: keyof typeof SGR, text: string) => string;
export const paint = (on: boolean): Paint => (on ? (style, text) => `\x1b[${SGR[style]}m${text}\x1b[0m` : (_style, text) => text);

type WriteDone = (error?: Error | null) => void;

/** One run's JSON mode: what the command records, and its printed text, captured. */
class JsonRun {
  readonly result: Record<string, unknown> = {};
  readonly diagnostics: DiagnosticJson[] = [];
  private stderr = "";
  private stdout = "";
  private restore?: () => void;

  /** Captures everything the command writes to stdout and stderr until `report`. */
  capture(): void {
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    // Both of write()'s forms: (chunk, done?) and (chunk, encoding?, done?).
    const sink = (into: "stdout" | "stderr") => (chunk: string | Uint8Array, encoding?: BufferEncoding | WriteDone, done?: WriteDone): boolean => {
      this[into] += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      (typeof encoding === "function" ? encoding : done)?.();
      return true;
    };
    process.stdout.write = sink("stdout");
    process.stderr.write = sink("stderr");
    this.restore = () => {
      process.stdout.write = out;
      process.stderr.write = err;
    };
  }

  stop(): void {
    this.restore?.();
  }

  /** Stops capturing and prints the one JSON object. */
  report(command: string, exitCode: number, error?: JsonReport["error"]): void {
    this.restore?.();
    const report: JsonReport = {
      kervan: JSON_SHAPE,
      command,
      ok: exitCode === 0,
      exitCode,
      result: this.result,
      diagnostics: this.diagnostics,
      messages: this.stderr.split("\n").filter((l) => l.trim() !== ""),
      output: this.stdout === "" ? null : this.stdout,
      ...(error ? { error } : {}),
    };
    process.stdout.write(JSON.stringify(report, null, 2) + "\n");
  }
}

// The JSON mode of the one command a process runs (cli.ts): the command's state, not a build's, set
// as it starts and cleared as it ends.
let run: JsonRun | undefined;

/** Starts JSON mode for this process (cli.ts, when `--json` is given to a command that takes it). */
export function startJson(): void {
  run = new JsonRun();
  run.capture();
}

export const jsonMode = (): boolean => run !== undefined;

/** Prints the JSON object (JSON mode only); true when it did. */
export function finishJson(command: string, exitCode: number, error?: JsonReport["error"]): boolean {
  if (!run) return false;
  run.report(command, exitCode, error);
  run = undefined;
  return true;
}

/** Leaves JSON mode without printing (`--help` prints its text). */
export function stopJson(): void {
  run?.stop();
  run = undefined;
}

/** Adds fields to the command's `result` (ignored outside JSON mode). */
export function record(fields: Record<string, unknown>): void {
  if (run) Object.assign(run.result, fields);
}

/** Diagnostics: as data in JSON mode (true), else left to the caller to print (false). */
export function recordDiagnostics(ds: Diagnostic[]): boolean {
  if (!run) return false;
  run.diagnostics.push(...ds.map(diagnosticJson));
  return true;
}

/** A command's refusal: the line people read, and `result.refused` in JSON mode. */
export function refused(command: string, reason: string, message: string): void {
  record({ refused: { reason, message } });
  process.stderr.write(`kervan ${command}: refused (${reason}): ${message}\n`);
}
