// Serving the code-mode tools over the caller's view of the server. search and call_operation are the
// catalog's own; describe answers TypeScript declarations built with the server (src/codemode.ts);
// execute runs the program (engine.ts), whose every inner call takes the path of a flat tools/call.
import { capText } from "../output.js";
import { formatInputErrors } from "../validation-format.js";
import { callTool } from "../tools.js";
import { isObject, RpcError } from "../jsonrpc.js";
import type { Core } from "../core.js";
import type { CallContext, CodeDef, ToolDef } from "../types.js";
import { serveCatalog } from "../catalog/serve.js";
import { CALL, DESCRIBE, SEARCH } from "../catalog/tools.js";
import { runProgram, type InnerAnswer, type RunOutcome } from "./engine.js";
import { Gate } from "./gate.js";
import { LIMIT_NAMES, type CodeLimits } from "./limits.js";
import { needsUser } from "./tools.js";
import { innerCallLog } from "./log.js";

type Params = Record<string, unknown> | undefined;
type Body = Record<string, unknown>;

export type { CodeDef };

function text(body: string, max: number, isError = false): Body {
  return { content: [{ type: "text", text: capText(body, max) }], ...(isError ? { isError: true } : {}) };
}

/** The operations of this view a program's `api` has: callable, and not one of the code-mode tools. */
function operations(core: Core): ToolDef[] {
  return [...core.tools.values()].filter((t) => t.catalog === undefined);
}

function describe(core: Core, code: CodeDef, tool: ToolDef, args: Record<string, unknown>): Body {
  const names = Array.isArray(args.names) ? (args.names as string[]) : typeof args.name === "string" ? [args.name] : [];
  if (names.length === 0) return text(`${DESCRIBE}: give name (one operation) or names (several).`, tool.maxOutputChars, true);
  const missing = names.filter((n) => { const t = core.tools.get(n); return !t || t.catalog !== undefined; });
  if (missing.length) {
    const list = missing.map((n) => JSON.stringify(n.slice(0, 80))).join(", ");
    return text(`Unknown operation ${list}: no operation of this server by that name is available to you. Find one with ${SEARCH} and use its exact name.`, tool.maxOutputChars, true);
  }
  const parts = names.map((n) => {
    const op = core.tools.get(n)!;
    const note = needsUser(op) ? `// ${n} asks the user first (confirmation or answers): a program cannot run it; call it with ${CALL} instead.\n` : "";
    return note + (code.declarations[n] ?? `declare namespace api {\n  function ${n}(args: Record<string, unknown>): Promise<unknown>;\n}`);
  });
  return text(parts.join("\n\n"), tool.maxOutputChars);
}

/** The pointers a validation error names (its "- /path: ..." lines). */
function pointersOf(message: string): string[] | undefined {
  const found = [...message.matchAll(/^- (\/\S*|\(root\)):/gm)].map((m) => (m[1] === "(root)" ? "" : m[1]));
  return found.length ? found : undefined;
}

/** A tool result as the program sees it: structured content, else the text as JSON when it is JSON, else the text. */
function valueOf(result: Body): string {
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  const items = Array.isArray(result.content) ? (result.content as { type?: unknown; text?: unknown }[]) : [];
  const texts = items.filter((c) => c.type === "text" && typeof c.text === "string").map((c) => c.text as string);
  const joined = texts.join("\n");
  try {
    return JSON.stringify(JSON.parse(joined));
  } catch {
    return JSON.stringify(joined);
  }
}

function errorText(result: Body): string {
  const items = Array.isArray(result.content) ? (result.content as { text?: unknown }[]) : [];
  return items.map((c) => (typeof c.text === "string" ? c.text : "")).join("\n") || "the operation failed";
}

/** One inner call: the view's operation, refused if it asks the user, else the flat tools/call path. */
async function inner(core: Core, name: string, json: string, ctx: CallContext, call: (params: Body) => Promise<Body>): Promise<InnerAnswer> {
  const op = core.tools.get(name);
  if (!op || op.catalog !== undefined) return { ok: false, operation: name, message: `api.${name} is not an operation available to you.` };
  if (needsUser(op)) {
    return { ok: false, operation: name, message: `${name} was not run: it asks the user first (confirmation or answers), and a program cannot ask. Nothing was sent. Call it on its own with ${CALL} {"name": "${name}", "arguments": {...}}, outside execute.` };
  }
  const args: unknown = JSON.parse(json);
  if (!isObject(args)) return { ok: false, operation: name, message: `api.${name} takes one object of arguments.` };
  const done = innerCallLog(core, name);
  let result: Body;
  try {
    // A task-capable operation runs synchronously here (a program cannot hold a task), bounded by the limits.
    result = op.task === "required" ? await callTool(op, args, ctx) : await call({ name, arguments: args });
  } catch (err) {
    done(err instanceof RpcError ? `error_${err.code}` : "internal_error");
    return { ok: false, operation: name, message: err instanceof Error ? err.message : String(err) };
  }
  if (result.isError === true) {
    done("tool_error");
    const message = errorText(result);
    const pointers = pointersOf(message);
    return { ok: false, operation: name, message, ...(pointers ? { pointers } : {}) };
  }
  done("ok");
  return { ok: true, json: valueOf(result) };
}

const gates = new WeakMap<CodeDef, Gate>();

function answer(outcome: RunOutcome, tool: ToolDef, limits: CodeLimits): Body {
  const printed = outcome.console ? `\n\nconsole.log output:\n${outcome.console}` : "";
  if (outcome.ok) {
    const content: Body[] = [{ type: "text", text: capText(outcome.json, tool.maxOutputChars) }];
    if (outcome.console) content.push({ type: "text", text: capText(`console.log output:\n${outcome.console}`, tool.maxOutputChars) });
    return { content };
  }
  if (outcome.limit) {
    return text(`execute stopped the program: ${outcome.error}. Nothing more of it runs; the server is fine. Make the program do less (fewer calls, smaller results, no endless loops), or split the task.${printed}`, tool.maxOutputChars, true);
  }
  void limits;
  return text(`The program failed: ${outcome.error}${printed}`, tool.maxOutputChars, true);
}

async function execute(core: Core, code: CodeDef, tool: ToolDef, args: Record<string, unknown>, ctx: CallContext, call: (params: Body) => Promise<Body>): Promise<Body> {
  let gate = gates.get(code);
  if (!gate) gates.set(code, (gate = new Gate(code.limits.concurrent, code.limits.queue)));
  const entered = gate.enter();
  if (!entered) {
    return text(`execute is busy: ${code.limits.concurrent} programs are running and ${code.limits.queue} are waiting (the ${LIMIT_NAMES.queue} limit, server.code.queue: ${code.limits.queue}). Nothing ran; try again shortly.`, tool.maxOutputChars, true);
  }
  const release = await entered;
  try {
    const names = operations(core).map((t) => t.name);
    const outcome = await runProgram(String(args.code), code.limits, { names, call: (name, json) => inner(core, name, json, ctx, call), signal: ctx.signal });
    return answer(outcome, tool, code.limits);
  } finally {
    release();
  }
}

/** A code-mode tool's call (the same shape as serveCatalog, which it hands search and call_operation to). */
export function serveCode(core: Core, tool: ToolDef, params: Params, args: Record<string, unknown>, ctx: CallContext, call: (params: Body) => Promise<Body>): Promise<Body> {
  const code = core.def.catalog!.code!;
  if (tool.catalog === "search" || tool.catalog === "call") return serveCatalog(core, tool, params, args, ctx, call);
  if (!tool.validateInput(args)) return Promise.resolve(text(formatInputErrors(tool.name, args, tool.validateInput.errors), tool.maxOutputChars, true));
  if (tool.catalog === "describe") return Promise.resolve(describe(core, code, tool, args));
  return execute(core, code, tool, args, ctx, call);
}
