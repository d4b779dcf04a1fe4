// MCP resources, static only: resources/list (paginated), resources/read and resources/templates/list
// (always empty), the same for both eras (2026-07-28 adds resultType, _meta and cache hints in the
// dispatcher). Every resource was read at build time and never changes: no subscriptions, no
// list_changed notifications. An unknown uri is the era's resource-not-found error, with the uri in
// its data: -32602 in 2026-07-28 (server/resources "Error Handling"), -32002 in 2025-11-25.
import { clipText, quoteValue } from "./clip.js";
import { INVALID_PARAMS, RpcError } from "./jsonrpc.js";
import type { Era, ResourceDef, ServerDef } from "./types.js";

/** The page size of resources/list (server/utilities/pagination: the server decides it). */
export const RESOURCE_PAGE_SIZE = 100;

/** 2025-11-25's resource-not-found code (server/resources "Error Handling"); 2026-07-28 uses -32602. */
export const RESOURCE_NOT_FOUND_LEGACY = -32002;

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

/** resources/read: the resource's one content item, text or base64 blob. */
export function readResource(def: ServerDef, params: Record<string, unknown> | undefined, era: Era): Record<string, unknown> {
  const uri = params?.uri;
  if (typeof uri !== "string") throw new RpcError(INVALID_PARAMS, "Invalid params: uri must be a string");
  let index = byUri.get(def);
  if (!index) {
    index = new Map((def.resources ?? []).map((r) => [r.uri, r]));
    byUri.set(def, index);
  }
  const r = index.get(uri);
  if (!r) throw new RpcError(era === "2026-07-28" ? INVALID_PARAMS : RESOURCE_NOT_FOUND_LEGACY, "Resource not found", { uri: clipText(uri) });
  const content: Record<string, unknown> = { uri: r.uri, mimeType: r.mimeType };
  if (r.blob !== undefined) content.blob = r.blob;
  else content.text = r.text ?? "";
  return { contents: [content] };
}
