// Raw HTTP requests to a server under test with node:http (not fetch), so Host, Origin and
// Content-Type can be set freely and malformed requests can be sent.
import { request, type Agent } from "node:http";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json?: any;
}

export const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

/** A 2026-07-28 request body and the headers that must accompany it. */
export function modernRequest(method: string, params: Record<string, unknown> = {}, id: number | string = 1): { body: unknown; headers: Record<string, string> } {
  const headers: Record<string, string> = { "mcp-protocol-version": "2026-07-28", "mcp-method": method };
  if (method === "tools/call" && typeof params.name === "string" && /^[\x20-\x7e]*$/.test(params.name)) headers["mcp-name"] = params.name;
  return { body: { jsonrpc: "2.0", id, method, params: { ...params, _meta: MODERN_META } }, headers };
}

export function rawPost(serverUrl: string, body: unknown, headers: Record<string, string> = {}, method = "POST", path = "/mcp"): Promise<RawResponse> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const all: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers };
  for (const [k, v] of Object.entries(all)) if (v === "") delete all[k]; // "" means: send no such header
  return httpRequest(new URL(path, serverUrl).href, { method, headers: all, body: method === "POST" ? text : undefined });
}

/** Any request with every node:http option a serving test needs (agent, abort signal, local address). */
export function httpRequest(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; agent?: Agent | false; signal?: AbortSignal; localAddress?: string } = {}): Promise<RawResponse> {
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
