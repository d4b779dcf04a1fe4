// Exec tools in IR form: the parsed argv, the field types and every limit made explicit.
import type { Json } from "../../../templates/runtime/types.js";
import type { KindNormalized, RawTool, RuleContext } from "../types.js";
import { SANDBOX_DEFAULTS, type SandboxConfig } from "../../../templates/kinds/exec/sandbox.js";
import { inferInputSchema } from "./input-contract.js";
import { flatArgs, parseArgTemplate, placeholderNames, type ArgEntry, type ArgPart } from "./template.js";
import { EXEC_DEFAULTS, EXEC_OUTPUT_SCHEMA as RUNTIME_OUTPUT_SCHEMA, type FieldType } from "../../../templates/kinds/exec/config.js";
import { alwaysAsked } from "../../shared/asked.js";
import { OUTPUT_FILES_TOTAL_DEFAULT } from "../../../templates/kinds/exec/output-files.js";
import { isObject, jsonObject, stringsOf } from "../../shared/object.js";
import type { ExecBlock } from "./schema.js";

// One source of truth for limits and the result schema: the runtime's own constants.
export const EXEC_OUTPUT_SCHEMA = jsonObject(RUNTIME_OUTPUT_SCHEMA);

export interface ExecIRConfig {
  argv: ArgEntry[];
  fields: Record<string, FieldType>;
  /** Fields the caller may leave out, each the condition of an argument group; absent when none. */
  optional?: string[];
  cwd?: string;
  env: { pass: string[]; set: Record<string, string> };
  timeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  /** stdout is an image or audio of this media type (spec `stdoutMedia`). */
  stdoutMedia?: string;
  /** Files the command writes into its per-call output directory, returned as embedded resources (spec `outputFiles`), in declared order. */
  outputFiles?: { path: string; mimeType: string; missing: "error" | "omit"; maxBytes: number }[];
  /** Cap on all output files of one call together (spec `outputFilesMaxBytes`). */
  outputFilesMaxBytes?: number;
  concurrency: number;
  queue: number;
  progressIntervalMs: number;
  rateLimit?: { calls: number; windowMs: number };
  paths?: { fields: string[]; allow: string[]; deny: string[] };
  okExitCodes: number[];
  /** Always explicit: the OS sandbox, or `none` written in the spec. */
  sandbox: SandboxConfig;
}

/** The tool's sandbox with every default made explicit: its own `sandbox`, else the server's, else bubblewrap. */
export function sandboxOf(exec: ExecBlock, serverDefault: unknown): SandboxConfig {
  const mode = exec.sandbox ?? (serverDefault === "none" ? "none" : "bubblewrap");
  if (mode === "none") return { mode: "none" };
  return {
    mode: "bubblewrap",
    visible: sorted(exec.visible),
    writable: sorted(exec.writable),
    network: exec.network === true,
    processes: exec.processes ?? SANDBOX_DEFAULTS.processes,
    fileSizeBytes: exec.fileSizeBytes ?? SANDBOX_DEFAULTS.fileSizeBytes,
    cpuSeconds: exec.cpuSeconds ?? SANDBOX_DEFAULTS.cpuSeconds,
    memoryBytes: exec.memoryBytes ?? SANDBOX_DEFAULTS.memoryBytes,
    tmpBytes: exec.tmpBytes ?? SANDBOX_DEFAULTS.tmpBytes,
    ...(exec.writableRunLater?.length ? { writableRunLater: sorted(exec.writableRunLater) } : {}),
  };
}

const sorted = (xs: string[] | undefined) => [...new Set(xs ?? [])].sort();

const FIELD_TYPES: readonly FieldType[] = ["string", "number", "integer", "boolean"];
const isFieldType = (t: unknown): t is FieldType => FIELD_TYPES.some((f) => f === t);

/** The spec's server.sandbox, when it has one. */
export const serverSandbox = (doc: unknown): unknown => (isObject<unknown>(doc) && isObject<unknown>(doc.server) ? doc.server.sandbox : undefined);

export function normalizeExec(exec: ExecBlock, tool: RawTool, ctx: RuleContext): KindNormalized<ExecIRConfig> {
  const parse = (a: string): ArgPart[] => {
    const r = parseArgTemplate(a);
    if ("error" in r) throw new Error(`exec argument ${JSON.stringify(a)} reached normalize unchecked: ${r.error}`);
    return r.parts;
  };
  const argv = exec.argv.map((a): ArgEntry => (typeof a === "string" ? parse(a) : { if: a.if, argv: a.argv.map(parse) }));
  const names = placeholderNames(flatArgs(argv).slice(1));
  const inputSchema = isObject(tool.input) ? tool.input : inferInputSchema(names);
  const props = isObject(inputSchema.properties) ? inputSchema.properties : {};
  const fields: Record<string, FieldType> = {};
  for (const name of Object.keys(props).sort()) {
    const prop = props[name];
    if (isObject(prop) && isFieldType(prop.type)) fields[name] = prop.type;
  }
  const setEnv: Record<string, string> = {};
  const set = exec.env?.set ?? {};
  for (const k of Object.keys(set).sort()) setEnv[k] = set[k];
  // An asked input (ask:) is optional in the schema but always given by the time the command runs.
  const asked = alwaysAsked(tool.ask); // an optional: true one may be left out, like any optional input
  const required = new Set([...(stringsOf(inputSchema.required) ?? []), ...asked]);
  const optional = Object.keys(fields).filter((n) => !required.has(n));
  const config: ExecIRConfig = {
    argv,
    fields,
    ...(optional.length ? { optional } : {}),
    ...(exec.cwd !== undefined ? { cwd: exec.cwd } : {}),
    env: { pass: sorted(exec.env?.pass), set: setEnv },
    timeoutMs: exec.timeoutMs ?? EXEC_DEFAULTS.timeoutMs,
    killGraceMs: exec.killGraceMs ?? EXEC_DEFAULTS.killGraceMs,
    maxOutputBytes: exec.maxOutputBytes ?? EXEC_DEFAULTS.maxOutputBytes,
    ...(typeof exec.stdoutMedia === "string" ? { stdoutMedia: exec.stdoutMedia.toLowerCase() } : {}),
    ...outputFilesOf(exec),
    concurrency: exec.concurrency ?? EXEC_DEFAULTS.concurrency,
    queue: exec.queue ?? EXEC_DEFAULTS.queue,
    progressIntervalMs: exec.progressIntervalMs ?? EXEC_DEFAULTS.progressIntervalMs,
    ...(exec.rateLimit ? { rateLimit: { calls: exec.rateLimit.calls, windowMs: exec.rateLimit.windowMs } } : {}),
    ...(exec.paths ? { paths: { fields: sorted(exec.paths.fields), allow: exec.paths.allow?.length ? sorted(exec.paths.allow) : ["."], deny: sorted(exec.paths.deny) } } : {}),
    okExitCodes: [...new Set<number>(exec.okExitCodes ?? [0])].sort((a, b) => a - b),
    sandbox: sandboxOf(exec, serverSandbox(ctx.spec.doc)),
  };
  return {
    inputSchema,
    outputSchema: EXEC_OUTPUT_SCHEMA,
    config,
    // MCP's own defaults: a local command may write and may reach the network unless the spec says otherwise.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    description: `Run ${String(exec.argv[0])} with a fixed argument template.`,
  };
}

type RawOutputFile = { path: string; mimeType: string; missing?: "error" | "omit"; maxBytes?: number };

/** `outputFiles` with every default filled (each file's cap: maxOutputBytes), or nothing. */
function outputFilesOf(exec: { outputFiles?: RawOutputFile[]; outputFilesMaxBytes?: number; maxOutputBytes?: number }): Pick<ExecIRConfig, "outputFiles" | "outputFilesMaxBytes"> {
  if (!Array.isArray(exec.outputFiles)) return {};
  const perFile = exec.maxOutputBytes ?? EXEC_DEFAULTS.maxOutputBytes;
  return {
    outputFiles: exec.outputFiles.map((f) => ({ path: f.path, mimeType: f.mimeType.toLowerCase(), missing: f.missing ?? "error", maxBytes: f.maxBytes ?? perFile })),
    outputFilesMaxBytes: exec.outputFilesMaxBytes ?? OUTPUT_FILES_TOTAL_DEFAULT,
  };
}
