// MCP resources: resources/list (paginated), resources/templates/list and resources/read, the same for
// both eras (2026-07-28 adds resultType, _meta and cache hints in the dispatcher). A static resource
// was read at build time; a templated one is read by its tool (template-read.ts). No list_changed
// notifications; 2025-11-25 subscriptions are accepted for static resources only, which never change
// (subscribeResource, docs/resources.md). A uri that is neither a static
// resource nor one a template expands to is the era's resource-not-found error, with the uri in its
// data: -32602 in 2026-07-28 (server/resources "Error Handling"), -32002 in 2025-11-25.
import { clipText, quoteValue } from "./clip.js";
import { INVALID_PARAMS, RpcError } from "./jsonrpc.js";
import { notFound, readTemplate } from "./template-read.js";
import type { CallContext, Era, ResourceDef, ResourceTemplateDef, ServerDef, ToolDef } from "./types.js";

export { RESOURCE_NOT_FOUND_LEGACY } from "./template-read.js";

/** The page size of resources/list (server/utilities/pagination: the server decides it). */
export const RESOURCE_PAGE_SIZE = 100;

const lists = new WeakMap<ServerDef, Record<string, unknown>[]>();
const byUri = new WeakMap<ServerDef, Map<string, ResourceDef>>();

export function describeResource(r: ResourceDef): Record<string, unknown> {
  const out: Record<string, unknown> = { uri: r.uri, name: r.name };
  if (r.title !== undefined) out.title = r.title;
  if (r.description !== undefined) out.description = r.description;
  out.mimeType = r.mimeType;
  out.size = r.size;
  return out;
}

function allResources(def: ServerDef): Record<string, unknown>[] {
  let list = lists.get(def);
  if (!list) {
    list = (def.resources ?? []).map(describeResource);
    lists.set(def, list);
  }
  return list;
}

/** A cursor is the offset of its page, opaque to the client (base64url of the decimal offset). */
const cursorOf = (offset: number) => Buffer.from(String(offset)).toString("base64url");

function invalidCursor(cursor: unknown): never {
  throw new RpcError(INVALID_PARAMS, "Invalid cursor", { cursor: typeof cursor === "string" ? clipText(cursor) : `(not a string: ${quoteValue(cursor, 80)})` });
}

/** The page offset a cursor we issued names; anything else (another string, a stale offset) is -32602. */
function offsetOf(cursor: unknown, total: number): number {
  if (cursor === undefined || cursor === null) return 0;
  if (typeof cursor !== "string" || !/^[A-Za-z0-9_-]{1,16}$/.test(cursor)) invalidCursor(cursor);
  const text = Buffer.from(cursor, "base64url").toString("latin1");
  if (!/^[1-9][0-9]{0,8}$/.test(text) || cursorOf(Number(text)) !== cursor) invalidCursor(cursor);
  const offset = Number(text);
  if (offset % RESOURCE_PAGE_SIZE !== 0 || offset >= total) invalidCursor(cursor);
  return offset;
}

/** resources/list: one page of the resources (sorted by uri by the generator), nextCursor when more follow. */
export function listResources(def: ServerDef, params: Record<string, unknown> | undefined): Record<string, unknown> {
  const all = allResources(def);
  const offset = offsetOf(params?.cursor, all.length);
  const end = offset + RESOURCE_PAGE_SIZE;
  return { resources: all.slice(offset, end), ...(end < all.length ? { nextCursor: cursorOf(end) } : {}) };
}

export function describeTemplate(t: ResourceTemplateDef): Record<string, unknown> {
  const out: Record<string, unknown> = { uriTemplate: t.uriTemplate, name: t.name };
  if (t.title !== undefined) out.title = t.title;
  if (t.description !== undefined) out.description = t.description;
  out.mimeType = t.mimeType;
  return out;
}

const templateLists = new WeakMap<ServerDef, Record<string, unknown>[]>();

/** resources/templates/list: every template, in one page (the generator sorted them by uriTemplate). */
export function listTemplates(def: ServerDef): Record<string, unknown>[] {
  let list = templateLists.get(def);
  if (!list) {
    list = (def.templates?.list ?? []).map(describeTemplate);
    templateLists.set(def, list);
  }
  return list;
}

/** What a templated read needs from the server: its tools, and a context for the call. */
export interface ReadScope {
  tools: Map<string, ToolDef>;
  context: () => CallContext;
}

function readTemplated(def: ServerDef, uri: string, era: Era, scope: ReadScope | undefined): Promise<Record<string, unknown>> {
  for (const template of def.templates?.list ?? []) {
    const vars = def.templates!.match(template.uriTemplate, uri);
    const tool = vars && scope?.tools.get(template.tool);
    if (vars && tool) return readTemplate(template, tool, vars, uri, era, scope!.context());
  }
  throw notFound(uri, era);
}

function uriOf(params: Record<string, unknown> | undefined): string {
  const uri = params?.uri;
  if (typeof uri !== "string") throw new RpcError(INVALID_PARAMS, "Invalid params: uri must be a string");
  return uri;
}

function staticResource(def: ServerDef, uri: string): ResourceDef | undefined {
  let index = byUri.get(def);
  if (!index) {
    index = new Map((def.resources ?? []).map((r) => [r.uri, r]));
    byUri.set(def, index);
  }
  return index.get(uri);
}

/**
 * resources/subscribe and resources/unsubscribe (2025-11-25 only: 2026-07-28 removed them). A static
 * resource's content was fixed at build time and cannot change while the server runs, so a
 * subscription to it is accepted ({}) and no notifications/resources/updated is ever due; nothing is
 * kept per client. A uri a template expands to is read through a tool and is not watched, and any
 * other uri names no resource: both -32602 with the uri in the error data.
 */
export function subscribeResource(def: ServerDef, params: Record<string, unknown> | undefined): Record<string, unknown> {
  const uri = uriOf(params);
  if (staticResource(def, uri)) return {};
  const templated = (def.templates?.list ?? []).some((t) => def.templates!.match(t.uriTemplate, uri));
  const message = templated ? "Resource is read through a tool and is not watched: subscribe only to static resources" : "Resource not found";
  throw new RpcError(INVALID_PARAMS, message, { uri: clipText(uri) });
}

/** resources/read: the resource's one content item, text or base64 blob; a templated one once its tool has run. */
export function readResource(def: ServerDef, params: Record<string, unknown> | undefined, era: Era, scope?: ReadScope): Record<string, unknown> | Promise<Record<string, unknown>> {
  const uri = uriOf(params);
  const r = staticResource(def, uri);
  if (!r) return readTemplated(def, uri, era, scope);
  const content: Record<string, unknown> = { uri: r.uri, mimeType: r.mimeType };
  if (r.blob !== undefined) content.blob = r.blob;
  else content.text = r.text ?? "";
  return { contents: [content] };
}
