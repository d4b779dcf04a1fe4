// One raw JSON-RPC request at a time to a generated server (no SDK), over stdio or Streamable HTTP, in
// either era: 2026-07-28 requests carry `_meta` (and the method/name headers over HTTP), 2025-11-25
// stdio opens with initialize.
import { META, spawnRaw } from "../runtime/raw.js";
import { rawPost } from "../helpers/raw-http.js";

export type Era = "2026-07-28" | "2025-11-25";
export const ERAS: Era[] = ["2026-07-28", "2025-11-25"];
export type Msg = { id?: unknown; result?: Record<string, any>; error?: { code: number; message: string; data?: any } };

export interface Wire {
  send(method: string, params?: Record<string, unknown>): Promise<Msg>;
  /** The capabilities the server declares in this era (server/discover or initialize). */
  capabilities(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } };
const withMeta = (era: Era, params: Record<string, unknown>) => (era === "2026-07-28" ? { ...params, _meta: META } : params);

export function stdioWire(bundle: string, era: Era, env: Record<string, string> = {}): Wire {
  const s = spawnRaw(bundle, env);
  let id = 0;
  let initResult: Promise<Msg> | undefined;
  if (era === "2025-11-25") {
    s.send(JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: INIT }));
    initResult = s.next().then((m) => {
      s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      return m as Msg;
    });
  }
  const send = async (method: string, params: Record<string, unknown> = {}): Promise<Msg> => {
    await initResult;
    s.send(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: withMeta(era, params) }));
    return (await s.next()) as Msg;
  };
  return {
    send,
    capabilities: async () => (initResult ? (await initResult).result!.capabilities : (await send("server/discover")).result!.capabilities),
    async close() {
      s.proc.stdin!.end();
      await s.exited;
    },
  };
}

function lastData(body: string): string {
  return body.startsWith("event:") || body.includes("\ndata: ") ? body.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6) : body;
}

export function httpWire(url: string, era: Era): Wire {
  let id = 0;
  const send = async (method: string, params: Record<string, unknown> = {}): Promise<Msg> => {
    const headers: Record<string, string> = { "mcp-protocol-version": era };
    if (era === "2026-07-28") {
      headers["mcp-method"] = method;
      const name = method === "resources/read" ? params.uri : method === "tools/call" || method === "prompts/get" ? params.name : undefined;
      if (typeof name === "string") headers["mcp-name"] = name;
    }
    const res = await rawPost(url, { jsonrpc: "2.0", id: ++id, method, params: withMeta(era, params) }, headers);
    return JSON.parse(lastData(res.body)) as Msg;
  };
  return {
    send,
    capabilities: async () => (era === "2025-11-25" ? (await send("initialize", INIT)).result!.capabilities : (await send("server/discover")).result!.capabilities),
    async close() {},
  };
}
