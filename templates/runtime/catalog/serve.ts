// Serving the catalog tools over the caller's view of the server: search and describe see only the
// operations the caller may call, and call_operation hands the operation to the same path a flat
// tools/call takes (its validator, scopes, confirmation, task, caps, output schema, log and span).
import { clipText } from "../clip.js";
import { capText } from "../output.js";
import { formatInputErrors } from "../validation-format.js";
import { describeTool } from "../tools.js";
import type { Core } from "../core.js";
import type { CallContext, ToolDef } from "../types.js";
import { loadTools } from "./lazy.js";
import { CALL, DESCRIBE, PAGE_DEFAULT, SEARCH } from "./tools.js";

type Params = Record<string, unknown> | undefined;
type Body = Record<string, unknown>;

function text(body: string, max: number, isError = false): Body {
  return { content: [{ type: "text", text: capText(body, max) }], ...(isError ? { isError: true } : {}) };
}

/** An operation of this view: callable, and not one of the catalog tools themselves. */
function operation(core: Core, name: unknown): ToolDef | undefined {
  if (typeof name !== "string") return undefined;
  const tool = core.tools.get(name);
  return tool && tool.catalog === undefined ? tool : undefined;
}

function unknown(names: string[], max: number): Body {
  const list = names.map((n) => JSON.stringify(clipText(n, 80))).join(", ");
  return text(`Unknown operation ${list}: no operation of this server by that name is available to you. Find one with ${SEARCH} and use its exact name.`, max, true);
}

async function search(core: Core, tool: ToolDef, args: Record<string, unknown>): Promise<Body> {
  const limit = typeof args.limit === "number" ? args.limit : PAGE_DEFAULT;
  const start = typeof args.cursor === "string" ? Number(args.cursor) : 0;
  if (!Number.isSafeInteger(start) || start < 0 || (typeof args.cursor === "string" && !/^[0-9]+$/.test(args.cursor))) {
    return text(`${SEARCH}: cursor ${JSON.stringify(clipText(String(args.cursor), 40))} is not one this server gave out; search again without it.`, tool.maxOutputChars, true);
  }
  // The scoring and its stemmer load with the index, on the first search: not at start.
  const [index, { rank }] = await Promise.all([core.def.catalog!.loadIndex(), import("./search.js")]);
  const ranked = rank(index, String(args.query), (name) => operation(core, name) !== undefined);
  const page = ranked.slice(start, start + limit).map((i) => index.ops[i]);
  const next = start + limit < ranked.length ? String(start + limit) : undefined;
  const lines = page.map(([name, summary, signature]) => `${name}(${signature})${summary ? `: ${summary}` : ""}`);
  const head = ranked.length === 0 ? `No operation matches ${JSON.stringify(clipText(String(args.query), 80))}; try other words.` : `${ranked.length} operation${ranked.length === 1 ? "" : "s"} match; best first:`;
  const tail = next !== undefined ? `\nMore: call ${SEARCH} again with cursor "${next}". Then ${DESCRIBE} for an operation's exact inputs.` : ranked.length ? `\nNext: ${DESCRIBE} for an operation's exact inputs.` : "";
  return text(`${head}\n${lines.join("\n")}${tail}`, tool.maxOutputChars);
}

function describe(core: Core, tool: ToolDef, args: Record<string, unknown>, era: CallContext["era"]): Body {
  const names = Array.isArray(args.names) ? (args.names as string[]) : typeof args.name === "string" ? [args.name] : [];
  if (names.length === 0) return text(`${DESCRIBE}: give name (one operation) or names (several).`, tool.maxOutputChars, true);
  const missing = names.filter((n) => operation(core, n) === undefined);
  if (missing.length) return unknown(missing, tool.maxOutputChars);
  const described = names.map((n) => {
    const op = operation(core, n)!;
    return { ...describeTool(op, era), confirm: op.confirm !== undefined, task: op.task ?? "forbidden", scopes: op.scopes ?? [] };
  });
  return text(JSON.stringify(described.length === 1 ? described[0] : described), tool.maxOutputChars);
}

/** describe_operation, once the operations it names are loaded (a large catalog loads them on first use). */
async function describeLoaded(core: Core, tool: ToolDef, args: Record<string, unknown>, era: CallContext["era"]): Promise<Body> {
  const names = Array.isArray(args.names) ? (args.names as unknown[]) : [args.name];
  await loadTools(names.map((n) => operation(core, n)).filter((op) => op !== undefined));
  return describe(core, tool, args, era);
}

/**
 * A catalog tool's call, its own arguments already valid. `call` runs a tools/call with other params
 * (the core's own handleCall, passed in so this module does not import the core).
 */
export function serveCatalog(core: Core, tool: ToolDef, params: Params, args: Record<string, unknown>, ctx: CallContext, call: (params: Body) => Promise<Body>): Promise<Body> {
  if (!tool.validateInput(args)) return Promise.resolve(text(formatInputErrors(tool.name, args, tool.validateInput.errors), tool.maxOutputChars, true));
  if (tool.catalog === "search") return search(core, tool, args);
  if (tool.catalog === "describe") return describeLoaded(core, tool, args, ctx.era);
  const op = operation(core, args.name);
  if (!op) return Promise.resolve(unknown([String(args.name)], tool.maxOutputChars));
  return call({ ...params, name: op.name, arguments: args.arguments ?? {} });
}

export { CALL };
