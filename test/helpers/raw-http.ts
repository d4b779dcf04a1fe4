// Raw HTTP requests to a server under test with node:http (not fetch), so Host, Origin and
// Content-Type can be set freely and malformed requests can be sent.
import { request } from "node:http";

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
  const url = new URL(serverUrl);
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const all: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers };
  for (const [k, v] of Object.entries(all)) if (v === "") delete all[k]; // "" means: send no such header
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers: all }, (res) => {
      let data = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (data += c));
      res.on("end", () => {
        let json: unknown;
        try {
          json = JSON.parse(data);
        } catch {}
        resolve({ status: res.statusCode!, headers: res.headers, body: data, json });
      });
    });
    req.on("error", reject);
    if (method === "POST") req.write(text);
    req.end();
  });
}
