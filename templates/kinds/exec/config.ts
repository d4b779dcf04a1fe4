// The plain-data configuration the generator emits for one exec tool, its defaults, and the
// structural checks run when a handler is created (the generator checks the same rules at build
// time; these guard hand-written or CLI-built configs).
import { StartupError } from "../../runtime/types.js";
import { checkSandboxConfig, type SandboxConfig, type SandboxLimits } from "./sandbox.js";
import { OUTPUT_FILES_TOTAL_DEFAULT, outputPathProblem, type OutputFile } from "./output-files.js";

/** One piece of an argument template: literal text, or the rendered value of a field. */
export type ArgPart = string | { field: string };

export type FieldType = "string" | "number" | "integer" | "boolean";

/**
 * Arguments added only under a condition: when the boolean field `if` is true (then `argv` is
 * fixed text), or when the optional scalar field `if` is present (then `argv` may render it).
 */
export interface ArgGroup {
  if: string;
  argv: ArgPart[][];
}

/** One entry of argv: a single argument, or a group of arguments added under a condition. */
export type ArgEntry = ArgPart[] | ArgGroup;

export const isGroup = (e: ArgEntry): e is ArgGroup => !Array.isArray(e);

/** Every argument template, group members included, in order. */
export const flatArgs = (argv: ArgEntry[]): ArgPart[][] => argv.flatMap((e) => (isGroup(e) ? e.argv : [e]));

export interface ExecToolConfig {
  /** The tool's name, used in error messages. */
  tool: string;
  /** argv[0] is the command (literal text only); each later entry renders to exactly one argument, or is a conditional group. */
  argv: ArgEntry[];
  /** Every placeholder's declared JSON type; exactly the fields the argv uses. */
  fields: Record<string, FieldType>;
  /** Fields the caller may leave out; each is the condition of a group and appears nowhere else. */
  optional?: string[];
  /** Exit statuses that are normal results rather than tool errors. Default: [0]. */
  okExitCodes?: number[];
  /** The OS sandbox; absent means none. */
  sandbox?: SandboxConfig;
  /** Working directory; relative paths resolve against the server's cwd at startup. Default: the server's cwd. */
  cwd?: string;
  /** The child inherits nothing but PATH and the `pass` variables, then `set` is applied on top. */
  env?: { pass?: string[]; set?: Record<string, string> };
  /** Whole-call budget in ms, including time spent queued for a slot. */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL of the process group after a timeout or cancellation. */
  killGraceMs?: number;
  /** Per stream (stdout, stderr); bytes beyond it are read and discarded. */
  maxOutputBytes?: number;
  /** stdout is an image or audio of this media type: returned as one base64 image/audio block. */
  stdoutMedia?: string;
  /** Files the command writes into $KERVAN_OUTPUT_DIR (a fresh directory per call), returned as embedded resources. */
  outputFiles?: OutputFile[];
  /** Cap on all output files of one call together (default OUTPUT_FILES_TOTAL_DEFAULT). */
  outputFilesMaxBytes?: number;
  /** Processes of this tool running at once. */
  concurrency?: number;
  /** Calls allowed to wait for a slot; beyond it a call is refused. 0 refuses at once when busy. */
  queue?: number;
  /** While a command runs, progress every this many ms to callers that asked for it; 0: none. */
  progressIntervalMs?: number;
  /** At most `calls` calls admitted in any sliding window of `windowMs` ms. Absent: no limit. */
  rateLimit?: { calls: number; windowMs: number };
  /**
   * Filesystem policy for fields that are paths: each value, resolved against the tool's cwd with
   * symlinks followed, must lie inside an `allow` root (default: the tool's cwd) and outside every
   * `deny` path. Relative roots resolve against the tool's cwd.
   */
  paths?: { fields: string[]; allow?: string[]; deny?: string[] };
}

/**
 * Limits that keep a single runaway command from stalling an agent, without throttling normal use.
 * A busy tool queues rather than refuses: agents issue parallel calls routinely, a refusal costs a
 * model turn, while waiting costs only time already bounded by the call's own timeout. The queue
 * is bounded, and past it calls are refused with a readable error (`queue: 0` refuses at once).
 * No rate limit unless the spec sets one.
 */
export const EXEC_DEFAULTS = Object.freeze({
  timeoutMs: 60_000,
  killGraceMs: 2_000,
  maxOutputBytes: 1024 * 1024,
  concurrency: 4,
  queue: 16,
  progressIntervalMs: 1_000,
});

/** structuredContent of every exec call, success or failure. */
export const EXEC_OUTPUT_SCHEMA = Object.freeze({
  type: "object",
  properties: {
    exitCode: { type: ["integer", "null"], description: "Exit status; null when killed by a signal or never started." },
    stdout: { type: "string" },
    stderr: { type: "string" },
    timedOut: { type: "boolean" },
    stdoutTruncated: { type: "boolean" },
    stderrTruncated: { type: "boolean" },
  },
  required: ["exitCode", "stdout", "stderr", "timedOut", "stdoutTruncated", "stderrTruncated"],
  additionalProperties: false,
} as const);

export interface ResolvedLimits {
  okExitCodes: number[];
  /** Set when the tool runs under the OS sandbox. */
  sandbox?: SandboxLimits;
  progressIntervalMs: number;
  timeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  concurrency: number;
  queue: number;
  outputFilesMaxBytes: number;
}

/** A media type (`outputFiles`). */
const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** An image or audio media type, as `stdoutMedia` names one. */
export const MEDIA = /^(image|audio)\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

const FIELD_TYPES = new Set(["string", "number", "integer", "boolean"]);
// setTimeout fires at once for delays above 2^31-1 ms, so larger budgets would mean no budget.
const MAX_DELAY = 2 ** 31 - 1;

/** Checks the config's shape and fills limits; a violation is a StartupError naming the tool. */
export function checkConfig(cfg: ExecToolConfig): ResolvedLimits {
  const fail = (why: string): never => {
    throw new StartupError(`exec tool ${JSON.stringify(cfg.tool)}: ${why}`);
  };
  if (!Array.isArray(cfg.argv) || cfg.argv.length === 0) fail("argv needs at least the command");
  if (cfg.stdoutMedia !== undefined && !MEDIA.test(cfg.stdoutMedia)) fail(`stdoutMedia ${JSON.stringify(cfg.stdoutMedia)} is not an image/* or audio/* media type`);
  checkOutputFiles(cfg, fail);
  const command = cfg.argv[0];
  if (isGroup(command) || !command.every((p) => typeof p === "string") || command.join("") === "") {
    fail("the command (argv[0]) must be non-empty literal text; a field may never choose the program");
  }
  const used = new Set<string>();
  const optional = new Set(cfg.optional ?? []);
  const useParts = (arg: ArgPart[], group?: string) => {
    for (const part of arg) {
      if (typeof part === "string") continue;
      if (!Object.hasOwn(cfg.fields, part.field)) fail(`placeholder {${part.field}} is not a declared field`);
      if (optional.has(part.field) && part.field !== group) fail(`optional field ${JSON.stringify(part.field)} may appear only in the arguments it conditions`);
      used.add(part.field);
    }
  };
  for (const entry of cfg.argv) {
    if (!isGroup(entry)) {
      useParts(entry);
      continue;
    }
    const type = cfg.fields[entry.if];
    if (type === undefined) fail(`argument group condition ${JSON.stringify(entry.if)} is not a declared field`);
    if (type !== "boolean" && !optional.has(entry.if)) fail(`argument group condition ${JSON.stringify(entry.if)} must be a boolean or an optional field`);
    if (!Array.isArray(entry.argv) || entry.argv.length === 0) fail(`argument group ${JSON.stringify(entry.if)} adds no arguments`);
    for (const arg of entry.argv) {
      if (type === "boolean" && !arg.every((p) => typeof p === "string")) fail(`arguments added by boolean ${JSON.stringify(entry.if)} must be fixed text`);
      useParts(arg, entry.if);
    }
    used.add(entry.if);
  }
  for (const [name, type] of Object.entries(cfg.fields)) {
    if (!FIELD_TYPES.has(type)) fail(`field ${JSON.stringify(name)} has unsupported type ${JSON.stringify(type)}`);
    if (!used.has(name)) fail(`field ${JSON.stringify(name)} is used by no argument`);
  }
  for (const name of optional) {
    if (!Object.hasOwn(cfg.fields, name)) fail(`optional field ${JSON.stringify(name)} is not declared`);
    if (!cfg.argv.some((e) => isGroup(e) && e.if === name)) fail(`optional field ${JSON.stringify(name)} conditions no argument group`);
  }
  const okExitCodes = cfg.okExitCodes ?? [0];
  if (!Array.isArray(okExitCodes) || okExitCodes.length === 0 || !okExitCodes.every((c) => Number.isInteger(c) && c >= 0 && c <= 255)) {
    fail("okExitCodes must be a non-empty list of exit statuses from 0 to 255");
  }
  for (const name of cfg.paths?.fields ?? []) {
    if (cfg.fields[name] !== "string") fail(`path field ${JSON.stringify(name)} must be a declared string field`);
    // The policy judges the decoded value; text around it (`/etc/{path}`) would make the program
    // open a different path than the one judged. Same rule as the generator's build-time check.
    for (const arg of flatArgs(cfg.argv)) {
      const uses = arg.some((p) => typeof p !== "string" && p.field === name);
      if (uses && arg.length !== 1) fail(`path field ${JSON.stringify(name)} must be a whole argument, not part of one`);
    }
  }
  const limit = (key: Exclude<keyof ResolvedLimits, "okExitCodes" | "sandbox" | "outputFilesMaxBytes">, min: number, max: number): number => {
    const v = cfg[key] ?? EXEC_DEFAULTS[key];
    if (!Number.isInteger(v) || v < min || v > max) fail(`${key} must be an integer from ${min} to ${max}, not ${v}`);
    return v;
  };
  const limits: ResolvedLimits = {
    okExitCodes,
    ...(cfg.sandbox && cfg.sandbox.mode !== "none" ? { sandbox: checkSandboxConfig(cfg.sandbox, fail) } : {}),
    timeoutMs: limit("timeoutMs", 1, MAX_DELAY),
    killGraceMs: limit("killGraceMs", 0, MAX_DELAY),
    maxOutputBytes: limit("maxOutputBytes", 0, 2 ** 30),
    concurrency: limit("concurrency", 1, 1_000),
    queue: limit("queue", 0, 100_000),
    progressIntervalMs: limit("progressIntervalMs", 0, MAX_DELAY),
    outputFilesMaxBytes: cfg.outputFilesMaxBytes ?? OUTPUT_FILES_TOTAL_DEFAULT,
  };
  if (!Number.isInteger(limits.outputFilesMaxBytes) || limits.outputFilesMaxBytes < 0 || limits.outputFilesMaxBytes > 2 ** 31) fail(`outputFilesMaxBytes must be an integer from 0 to ${2 ** 31}`);
  if (cfg.rateLimit) {
    const { calls, windowMs } = cfg.rateLimit;
    if (!Number.isInteger(calls) || calls < 1 || !Number.isInteger(windowMs) || windowMs < 1) {
      fail("rateLimit needs positive integers calls and windowMs");
    }
  }
  for (const name of cfg.env?.pass ?? []) if (!name || name.includes("=")) fail(`env.pass has an invalid name ${JSON.stringify(name)}`);
  return limits;
}

/** Declared output files: plain relative paths, each once, with a media type and a sane cap. */
function checkOutputFiles(cfg: ExecToolConfig, fail: (why: string) => never): void {
  const seen = new Set<string>();
  for (const f of cfg.outputFiles ?? []) {
    const problem = typeof f.path === "string" ? outputPathProblem(f.path) : "is not a string";
    if (problem) fail(`outputFiles path ${JSON.stringify(f.path)} ${problem}`);
    if (seen.has(f.path)) fail(`outputFiles path ${JSON.stringify(f.path)} is declared twice`);
    seen.add(f.path);
    if (!MIME.test(f.mimeType)) fail(`outputFiles ${f.path}: ${JSON.stringify(f.mimeType)} is not a media type`);
    if (f.missing !== undefined && f.missing !== "error" && f.missing !== "omit") fail(`outputFiles ${f.path}: missing must be "error" or "omit"`);
    if (f.maxBytes !== undefined && (!Number.isInteger(f.maxBytes) || f.maxBytes < 0 || f.maxBytes > 2 ** 30)) fail(`outputFiles ${f.path}: maxBytes must be an integer from 0 to ${2 ** 30}`);
  }
}
