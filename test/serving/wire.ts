// Raw Streamable HTTP requests for serving tests: both eras' tools/call bodies with the headers each needs.
import type { Agent } from "node:http";
import { httpRequest, MODERN_META, type RawResponse as Answer } from "../helpers/raw-http.js";

export { httpRequest, MODERN_META, type RawResponse as Answer } from "../helpers/raw-http.js";

/** A request in either era: the 2026 form carries _meta and the Mcp-* headers, the 2025 form neither. */
export function rpcRequest(era: "2026-07-28" | "2025-11-25", id: number | string, method: string, params: Record<string, unknown> = {}) {
  const modern = era === "2026-07-28";
  const body = { jsonrpc: "2.0", id, method, params: modern ? { ...params, _meta: MODERN_META } : params };
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (modern) {
    headers["mcp-protocol-version"] = "2026-07-28";
    headers["mcp-method"] = method;
    if (typeof params.name === "string") headers["mcp-name"] = params.name;
  } else headers["mcp-protocol-version"] = "2025-11-25";
  return { body: JSON.stringify(body), headers };
}

export function rpc(url: string, era: "2026-07-28" | "2025-11-25", id: number | string, method: string, params: Record<string, unknown> = {}, extra: Record<string, string> = {}, agent?: Agent | false): Promise<Answer> {
  const r = rpcRequest(era, id, method, params);
  return httpRequest(url, { method: "POST", headers: { ...r.headers, ...extra }, body: r.body, agent });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
