// Raw Streamable HTTP requests for serving tests: both eras' tools/call bodies with the headers each needs.
import { request, type Agent } from "node:http";

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json?: any;
}

export const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

export function httpRequest(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent | false; signal?: AbortSignal; localAddress?: string } = {}): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? "GET", headers: opts.headers, agent: opts.agent, signal: opts.signal, localAddress: opts.localAddress },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (data += c));
        res.on("end", () => {
          let json: unknown;
          try {
            json = JSON.parse(data);
          } catch {
            // SSE or empty
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data, json });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

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
