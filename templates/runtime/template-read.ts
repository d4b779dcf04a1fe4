// resources/read of a URI one of the spec's resource templates matches: the template's tool runs with
// the URI's variables as its arguments, through the same call path as tools/call (input validation,
// the kind's templating, sandbox, secrets, redaction and caps), and its text is the resource's content.
// Variables the tool's input types as integer, number or boolean are converted first. Arguments the
// tool's input refuses name no resource (the era's resource-not-found error); a call that fails is
// -32603 with its (redacted, capped) message.
import { clipText } from "./clip.js";
import { INTERNAL_ERROR, INVALID_PARAMS, RpcError } from "./jsonrpc.js";
import { callTool } from "./tools.js";
import type { CallContext, Era, ResourceTemplateDef, ToolDef } from "./types.js";

/** 2025-11-25's resource-not-found code (server/resources "Error Handling"); 2026-07-28 uses -32602. */
export const RESOURCE_NOT_FOUND_LEGACY = -32002;

export function notFound(uri: string, era: Era): RpcError {
  return new RpcError(era === "2026-07-28" ? INVALID_PARAMS : RESOURCE_NOT_FOUND_LEGACY, "Resource not found", { uri: clipText(uri) });
}

function typeOf(tool: ToolDef, name: string): unknown {
  const props = tool.inputSchema.properties;
  const prop = props && typeof props === "object" ? (props as Record<string, unknown>)[name] : undefined;
  return prop && typeof prop === "object" ? (prop as Record<string, unknown>).type : undefined;
}

/** A variable's string as the tool's input types it (left a string when it does not parse: validation then refuses it). */
function convert(value: string, type: unknown): unknown {
  if ((type === "integer" || type === "number") && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(value)) return Number(value);
  if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** A tool's arguments from strings (URI variables, completion context), typed by its input schema. */
export function toolArgs(tool: ToolDef, values: Record<string, string>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) args[name] = convert(value, typeOf(tool, name));
  return args;
}

/**
 * A tool result as one resource content item: an image or audio block's bytes as a blob, else the
 * text: the structured value's `textFrom` property when the template names one (exec: stdout), or
 * the first text block.
 */
export function contentOf(body: Record<string, unknown>, uri: string, mimeType: string, textFrom?: string): Record<string, unknown> {
  const blocks = Array.isArray(body.content) ? (body.content as Record<string, unknown>[]) : [];
  const media = blocks.find((b) => (b.type === "image" || b.type === "audio") && typeof b.data === "string");
  if (media) return { uri, mimeType: typeof media.mimeType === "string" ? media.mimeType : mimeType, blob: media.data };
  const value = body.structuredContent as Record<string, unknown> | undefined;
  if (textFrom && value && typeof value[textFrom] === "string") return { uri, mimeType, text: value[textFrom] };
  const first = blocks[0];
  return { uri, mimeType, text: first && typeof first.text === "string" ? first.text : "" };
}

export async function readTemplate(template: ResourceTemplateDef, tool: ToolDef, vars: Record<string, string>, uri: string, era: Era, ctx: CallContext): Promise<Record<string, unknown>> {
  const args = toolArgs(tool, vars);
  if (!tool.validateInput(args)) throw notFound(uri, era);
  const body = await callTool(tool, args, ctx);
  if (body.isError) {
    const first = Array.isArray(body.content) ? (body.content[0] as Record<string, unknown> | undefined) : undefined;
    throw new RpcError(INTERNAL_ERROR, "Resource read failed", { uri: clipText(uri), reason: clipText(typeof first?.text === "string" ? first.text : "the read failed") });
  }
  // `templated` tells the dispatcher the content is fresh (no cache hints of the bundle's); it strips it.
  return { contents: [contentOf(body, uri, template.mimeType, template.textFrom)], templated: true };
}
