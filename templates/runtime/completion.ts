// completion/complete (server/utilities/completion): candidates for one prompt argument or resource
// template variable, from a fixed list (the spec's, or the enum of the tool input it fills) or from the
// output lines of one of the server's tools, run through the tools/call path with its own caps (time,
// output). The candidates that start with the typed value (ignoring case) come back in their order, at
// most 100 (the spec's limit), with the total and hasMore. An unknown prompt, template or argument is
// -32602; an argument with nothing to complete answers no values. The capability is declared only when
// some prompt argument or template variable completes.
import { clipText } from "./clip.js";
import { INTERNAL_ERROR, INVALID_PARAMS, isObject, RpcError } from "./jsonrpc.js";
import { contentOf, toolArgs } from "./template-read.js";
import { callTool } from "./tools.js";
import type { CallContext, CompletionDef, ServerDef, ToolDef } from "./types.js";

/** The most values one answer carries (CompleteResult: "Must not exceed 100 items"). */
export const MAX_COMPLETIONS = 100;

export function hasCompletions(def: ServerDef): boolean {
  const some = (c: Record<string, CompletionDef> | undefined) => c !== undefined && Object.keys(c).length > 0;
  return (def.prompts?.some((p) => some(p.complete)) ?? false) || (def.templates?.list.some((t) => some(t.complete)) ?? false);
}

export interface CompleteScope {
  tools: Map<string, ToolDef>;
  context: () => CallContext;
}

const invalid = (message: string): never => {
  throw new RpcError(INVALID_PARAMS, `Invalid params: ${message}`);
};

/** The completion sources of what `ref` names, and the names it has. */
function sourcesOf(def: ServerDef, ref: unknown): { names: string[]; complete: Record<string, CompletionDef> } {
  if (!isObject(ref)) return invalid("ref must be an object");
  if (ref.type === "ref/prompt") {
    const prompt = typeof ref.name === "string" ? def.prompts?.find((p) => p.name === ref.name) : undefined;
    if (!prompt) return invalid(`unknown prompt: ${clipText(String(ref.name))}`);
    return { names: prompt.arguments.map((a) => a.name), complete: prompt.complete ?? {} };
  }
  if (ref.type === "ref/resource") {
    const template = typeof ref.uri === "string" ? def.templates?.list.find((t) => t.uriTemplate === ref.uri) : undefined;
    if (template) return { names: Object.keys(template.complete ?? {}).concat(variablesOf(template.uriTemplate)), complete: template.complete ?? {} };
    if (typeof ref.uri === "string" && def.resources?.some((r) => r.uri === ref.uri)) return { names: [], complete: {} };
    return invalid(`unknown resource template: ${clipText(String(ref.uri))}`);
  }
  return invalid("ref.type must be ref/prompt or ref/resource");
}

function variablesOf(uriTemplate: string): string[] {
  return [...uriTemplate.matchAll(/\{[+#]?([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!);
}

function answer(all: string[], value: string): Record<string, unknown> {
  const typed = value.toLowerCase();
  const matching = [...new Set(all)].filter((v) => v.toLowerCase().startsWith(typed));
  return { completion: { values: matching.slice(0, MAX_COMPLETIONS), total: matching.length, hasMore: matching.length > MAX_COMPLETIONS } };
}

/** The tool's output lines: it runs with the typed value and the context's arguments its input declares. */
async function toolValues(tool: ToolDef, textFrom: string | undefined, name: string, value: string, context: Record<string, string>, ctx: CallContext): Promise<string[]> {
  const props = isObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  const given: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...context, [name]: value })) if (Object.hasOwn(props, k)) given[k] = v;
  const args = toolArgs(tool, given);
  if (!tool.validateInput(args)) return [];
  const body = await callTool(tool, args, ctx);
  if (body.isError) {
    const first = Array.isArray(body.content) ? (body.content[0] as Record<string, unknown> | undefined) : undefined;
    throw new RpcError(INTERNAL_ERROR, "Completion failed", { reason: clipText(typeof first?.text === "string" ? first.text : "the command or request failed") });
  }
  const text = contentOf(body, "", "text/plain", textFrom).text;
  return typeof text === "string" ? text.split("\n").map((l) => l.trim()).filter((l) => l !== "") : [];
}

function contextArguments(params: Record<string, unknown>): Record<string, string> {
  const context = params.context;
  const args = isObject(context) ? context.arguments : undefined;
  if (args === undefined) return {};
  if (!isObject(args) || !Object.values(args).every((v) => typeof v === "string")) return invalid("context.arguments must map names to strings");
  return args as Record<string, string>;
}

export async function complete(def: ServerDef, params: Record<string, unknown> | undefined, scope: CompleteScope): Promise<Record<string, unknown>> {
  if (!params) return invalid("ref and argument are required");
  const { names, complete: sources } = sourcesOf(def, params.ref);
  const argument = params.argument;
  if (!isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string") return invalid("argument must be {name, value} with string values");
  if (!names.includes(argument.name)) return invalid(`unknown argument: ${clipText(argument.name)}`);
  const context = contextArguments(params);
  const source = sources[argument.name];
  if (!source) return answer([], argument.value);
  if ("values" in source) return answer(source.values, argument.value);
  const tool = scope.tools.get(source.tool);
  if (!tool) return answer([], argument.value);
  return answer(await toolValues(tool, source.textFrom, argument.name, argument.value, context, scope.context()), argument.value);
}
