// The CLI form: `--tool --name N [options] --exec CMD ARGS... [--tool ...]` becomes a spec document,
// which then goes through the same pipeline as a YAML spec. Flag names follow the seed's CLI form.
import { stringify } from "yaml";
import type { SourceFile } from "../model/spec.js";
import { UsageError } from "./sources.js";
import { CLI_SOURCE } from "../shared/sources.js";
import { messageOf } from "../shared/object.js";
import { READ_LIMITS, ReadRefused, readRegularFile } from "../shared/read-bounded.js";

export { CLI_SOURCE };

const INT_FLAGS: Record<string, [string, string?]> = {
  "--process-timeout-ms": ["timeoutMs"],
  "--process-kill-grace-ms": ["killGraceMs"],
  "--process-output-limit-bytes": ["maxOutputBytes"],
  "--process-max-concurrency": ["concurrency"],
  "--process-queue": ["queue"],
  "--process-progress-interval-ms": ["progressIntervalMs"],
  "--process-rate-limit-count": ["rateLimit", "calls"],
  "--process-rate-limit-window-ms": ["rateLimit", "windowMs"],
};
const LIST_FLAGS: Record<string, [string, string]> = {
  "--fs-path-field": ["paths", "fields"],
  "--fs-root": ["paths", "allow"],
  "--fs-deny-path": ["paths", "deny"],
  "--env-pass": ["env", "pass"],
};
const ONCE_FLAGS = ["--name", "--title", "--description", "--annotations", "--input-schema", "--cwd", "--sandbox"];

function positiveInt(flag: string, value: string): number {
  const zeroOk = flag === "--process-queue" || flag === "--process-progress-interval-ms";
  const pattern = zeroOk ? /^(0|[1-9][0-9]*)$/ : /^[1-9][0-9]*$/;
  if (!pattern.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`${flag} requires ${zeroOk ? "a non-negative" : "a positive"} integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

function readAnnotations(value: string): unknown {
  try {
    const v = JSON.parse(value);
    if (v && typeof v === "object" && !Array.isArray(v)) return v;
  } catch {
    // reported below
  }
  throw new UsageError(`--annotations takes a JSON object, e.g. '{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}'`);
}

function readSchema(value: string): unknown {
  let text = value;
  if (value.startsWith("@")) {
    try {
      text = readRegularFile(value.slice(1), READ_LIMITS.schemaFileBytes);
    } catch (e) {
      throw new UsageError(e instanceof ReadRefused ? `input schema file ${value.slice(1)} ${e.message}` : `cannot read input schema file ${value.slice(1)}`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--input-schema must be a JSON object or @file: ${messageOf(e)}`);
  }
}

type Tool = Record<string, any> & { exec: Record<string, any> };

/** Parses tool blocks; `args` starts at the first --tool. */
export function parseToolBlocks(args: string[]): Tool[] {
  const tools: Tool[] = [];
  let i = 0;
  while (i < args.length) {
    if (args[i] !== "--tool") throw new UsageError(`unexpected argument ${JSON.stringify(args[i])}; expected --tool`);
    i += 1;
    const tool: Tool = { exec: {} };
    const seen = new Set<string>();
    while (i < args.length && args[i] !== "--tool") {
      const flag = args[i];
      if (flag === "--exec") {
        const end = args.indexOf("--tool", i + 1);
        tool.exec.argv = args.slice(i + 1, end < 0 ? args.length : end);
        if (!tool.exec.argv.length) throw new UsageError("--exec needs a command");
        i = end < 0 ? args.length : end;
        continue;
      }
      const value = args[i + 1];
      if (value === undefined || value === "--tool") throw new UsageError(`${flag} requires a value`);
      if (ONCE_FLAGS.includes(flag) || Object.hasOwn(INT_FLAGS, flag)) {
        if (seen.has(flag)) throw new UsageError(`${flag} may only be given once per tool`);
        seen.add(flag);
      }
      if (flag === "--input-schema") tool.input = readSchema(value);
      else if (flag === "--annotations") tool.annotations = readAnnotations(value);
      else if (flag === "--cwd") tool.exec.cwd = value;
      else if (flag === "--sandbox") {
        // The OS sandbox is on by default; opting out is written out, as in a spec.
        if (value !== "none" && value !== "bubblewrap") throw new UsageError(`--sandbox takes none or bubblewrap, got ${JSON.stringify(value)}`);
        tool.exec.sandbox = value;
      }
      else if (flag === "--name" || flag === "--title" || flag === "--description") tool[flag.slice(2)] = value;
      else if (flag === "--env-set") {
        const eq = value.indexOf("=");
        if (eq <= 0) throw new UsageError(`--env-set takes NAME=VALUE, got ${JSON.stringify(value)}`);
        (tool.exec.env ??= {}).set = { ...(tool.exec.env.set ?? {}), [value.slice(0, eq)]: value.slice(eq + 1) };
      } else if (Object.hasOwn(INT_FLAGS, flag)) {
        const [key, sub] = INT_FLAGS[flag];
        if (sub) (tool.exec[key] ??= {})[sub] = positiveInt(flag, value);
        else tool.exec[key] = positiveInt(flag, value);
      } else if (Object.hasOwn(LIST_FLAGS, flag)) {
        const [key, sub] = LIST_FLAGS[flag];
        ((tool.exec[key] ??= {})[sub] ??= []).push(value);
      } else throw new UsageError(`unknown tool option ${JSON.stringify(flag)}`);
      i += 2;
    }
    if (!tool.name) throw new UsageError("each --tool block needs --name");
    if (!tool.exec.argv) throw new UsageError(`tool ${JSON.stringify(tool.name)} needs --exec COMMAND [ARGS...]`);
    const rl = tool.exec.rateLimit;
    if (rl && (rl.calls === undefined) !== (rl.windowMs === undefined)) {
      throw new UsageError("--process-rate-limit-count and --process-rate-limit-window-ms go together");
    }
    const { exec, ...rest } = tool;
    tools.push({ ...rest, exec }); // spec order: identity first, then the command
  }
  if (!tools.length) throw new UsageError("at least one --tool block is required");
  return tools;
}

/** The spec document the flags describe, as YAML text, so diagnostics can show the line at fault. */
export function toolFlagsSource(args: string[], server: { name: string; version: string }): SourceFile {
  const doc = { server, tools: parseToolBlocks(args) };
  return { path: CLI_SOURCE, text: stringify(doc, { lineWidth: 0 }) };
}
