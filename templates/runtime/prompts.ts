// MCP prompts: prompts/list descriptors and prompts/get, the same for both eras (2026-07-28 adds
// resultType and _meta in the dispatcher, and may answer input_required while the user is asked for
// an argument). Arguments are strings; a missing required one, an unknown one or an unknown prompt is
// -32602 with a readable message, and nothing is rendered. A template's `{arg}` is the argument's
// value as given (a prompt is text for a model, not code: nothing is quoted), `{{`/`}}` literal braces.
import { clipText } from "./clip.js";
import { INVALID_PARAMS, isObject, RpcError } from "./jsonrpc.js";
import type { Era, Modes, PromptContentDef, PromptDef, ServerDef } from "./types.js";

const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_-]*)\}/g;

const lists = new WeakMap<ServerDef, Record<string, unknown>[]>();

/** prompts/list: every prompt (the generator sorted them by name), in one page. */
export function listPrompts(def: ServerDef): Record<string, unknown>[] {
  let list = lists.get(def);
  if (!list) {
    list = (def.prompts ?? []).map(describePrompt);
    lists.set(def, list);
  }
  return list;
}

export function describePrompt(p: PromptDef): Record<string, unknown> {
  const out: Record<string, unknown> = { name: p.name };
  if (p.title !== undefined) out.title = p.title;
  if (p.description !== undefined) out.description = p.description;
  if (p.arguments.length > 0) out.arguments = p.arguments.map((a) => ({ ...a }));
  return out;
}

export function fill(template: string, args: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (whole, name: string | undefined) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const value = Object.hasOwn(args, name!) ? args[name!] : undefined;
    return typeof value === "string" ? value : "";
  });
}

function render(content: PromptContentDef, args: Record<string, unknown>): Record<string, unknown> {
  switch (content.type) {
    case "text":
      return { type: "text", text: fill(content.text, args) };
    case "resource": {
      const r = content.resource;
      return { type: "resource", resource: { uri: fill(r.uri, args), ...(r.mimeType !== undefined ? { mimeType: r.mimeType } : {}), text: fill(r.text, args) } };
    }
    default:
      return { type: "image", data: content.data, mimeType: content.mimeType };
  }
}

/** The GetPromptResult body (no resultType/_meta: the dispatcher adds those). */
export function renderPrompt(p: PromptDef, args: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (p.description !== undefined) body.description = p.description;
  body.messages = p.messages.map((m) => ({ role: m.role, content: render(m.content, args) }));
  return body;
}

function invalid(message: string): never {
  throw new RpcError(INVALID_PARAMS, message);
}

/** The prompt named and its arguments, checked: every value a string, every name declared. */
export function promptRequest(def: ServerDef, params: Record<string, unknown> | undefined): { prompt: PromptDef; args: Record<string, string> } {
  const name = params?.name;
  if (typeof name !== "string") invalid("Invalid params: name must be a string");
  const prompt = def.prompts?.find((p) => p.name === name);
  if (!prompt) invalid(`Unknown prompt: ${clipText(name)}`);
  const given = params?.arguments ?? {};
  if (!isObject(given)) invalid(`Invalid params: arguments for prompt "${name}" must be an object of strings`);
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(given)) {
    if (!prompt.arguments.some((a) => a.name === key)) {
      const known = prompt.arguments.map((a) => a.name);
      invalid(`Invalid params: prompt "${name}" has no argument "${clipText(key, 64)}"${known.length ? ` (its arguments: ${known.join(", ")})` : " (it takes none)"}`);
    }
    if (typeof value !== "string") invalid(`Invalid params: argument "${key}" of prompt "${name}" must be a string`);
    args[key] = value;
  }
  return { prompt, args };
}

/** -32602 naming every required argument the caller left out (before anyone is asked anything). */
export function requireArguments(prompt: PromptDef, args: Record<string, unknown>): void {
  const missing = prompt.arguments.filter((a) => a.required && !Object.hasOwn(args, a.name)).map((a) => a.name);
  if (missing.length > 0) invalid(`Invalid params: prompt "${prompt.name}" needs ${missing.length === 1 ? "the argument" : "the arguments"} ${missing.join(", ")}`);
}

export async function getPrompt(def: ServerDef, params: Record<string, unknown> | undefined, era: Era, principal: string, modes: Modes | undefined, elicit?: (params: Record<string, unknown>) => Promise<unknown>): Promise<Record<string, unknown>> {
  const { prompt, args } = promptRequest(def, params);
  requireArguments(prompt, args);
  if (!prompt.ask?.some((q) => !Object.hasOwn(args, q.field))) return renderPrompt(prompt, args);
  if (!modes) throw new Error(`prompt ${prompt.name} asks for arguments but the server was built without its questions layer`);
  const asked = await modes.askPrompt({ prompt, args, params, era, principal, ...(elicit ? { elicit } : {}) });
  if (!asked.run) return asked.result;
  // A form answer is the user's, but a client may send any JSON: prompt arguments are strings.
  for (const q of prompt.ask) {
    if (typeof asked.args[q.field] !== "string") invalid(`Invalid params: the answer for argument "${q.field}" of prompt "${prompt.name}" must be a string`);
  }
  return renderPrompt(prompt, asked.args);
}
