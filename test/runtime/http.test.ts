// The runtime over Streamable HTTP: the official client in each version mode, then raw fetches for
// the status-code and header rules of 2026-07-28 (403/404/405/400 with -32020/-32022/-32602).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { connectHttp, startHttpServer, VERSION_MODES, type HttpServer } from "../helpers/client.js";
import { META } from "./raw.js";
import { rawPost } from "../helpers/raw-http.js";

const entry = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
let server: HttpServer;

beforeAll(async () => {
  server = await startHttpServer(await bundleEntry(entry));
});
afterAll(async () => {
  await server?.stop();
});

describe.each(VERSION_MODES)("official client over HTTP, %s", (mode) => {
  it("lists, calls, reports invalid arguments and unknown tools", async () => {
    const conn = await connectHttp(server.url, mode);
    try {
      expect(conn.client.getNegotiatedProtocolVersion()).toBe(mode === "2025-11-25" ? "2025-11-25" : "2026-07-28");
      const { tools } = await conn.client.listTools();
      expect(tools).toHaveLength(11);
      const ok = await conn.client.callTool({ name: "echo", arguments: { text: "hi", region: "eu-1" } });
      expect(ok.structuredContent).toEqual({ text: "hi" });
      const add = await conn.client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
      expect(add.structuredContent).toEqual(mode === "2025-11-25" ? { result: 5 } : 5);
      const bad = await conn.client.callTool({ name: "echo", arguments: {} });
      expect(bad.isError).toBe(true);
      expect((bad.content as { text: string }[])[0].text).toContain("- /text: is required but missing");
      await expect(conn.client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await conn.close();
    }
  });
});

/** node:http rather than fetch, so Host and Origin can be set freely. */
const post = (body: unknown, headers: Record<string, string> = {}, method = "POST", path = "/mcp") => rawPost(server.url, body, headers, method, path);

const modern = (method: string, params: Record<string, unknown> = {}, id = 1) => ({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } });
const h = (method: string, extra: Record<string, string> = {}) => ({ "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...extra });

describe("raw HTTP", () => {
  it("serves a modern request with JSON, or SSE when only SSE is accepted", async () => {
    const json = await post(modern("tools/list"), h("tools/list"));
    expect(json.status).toBe(200);
    expect(json.json.result).toMatchObject({ resultType: "complete", ttlMs: 3600000, cacheScope: "public" });
    const sse = await post(modern("tools/list"), h("tools/list", { accept: "text/event-stream" }));
    expect(sse.headers["content-type"]).toBe("text/event-stream");
    expect(sse.headers["x-accel-buffering"]).toBe("no");
    expect(sse.body).toMatch(/^event: message\ndata: \{"jsonrpc":"2.0","id":1,"result":/);
  });

  it("streams progress over SSE, then the result", async () => {
    const body = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "progress", arguments: {}, _meta: { ...META, progressToken: 9 } } };
    const res = await post(body, h("tools/call", { "mcp-name": "progress" }));
    expect(res.headers["content-type"]).toBe("text/event-stream");
    const events = res.body.trim().split("\n\n").map((e) => JSON.parse(e.replace(/^event: message\ndata: /, "")));
    expect(events.map((e) => e.method ?? e.id)).toEqual(["notifications/progress", "notifications/progress", "notifications/progress", 5]);
  });

  it("rejects foreign Host and Origin with 403 (DNS rebinding)", async () => {
    expect((await post(modern("tools/list"), h("tools/list", { host: "evil.example.com" }))).status).toBe(403);
    expect((await post(modern("tools/list"), h("tools/list", { origin: "http://evil.example.com" }))).status).toBe(403);
    expect((await post(modern("tools/list"), h("tools/list", { origin: "null" }))).status).toBe(403);
    expect((await post(modern("tools/list"), h("tools/list", { host: "localhost:1" }))).status).toBe(200);
    // Browser origins are refused unless listed (--allowed-origins), loopback ones too: see origin.test.ts.
    expect((await post(modern("tools/list"), h("tools/list", { host: "localhost:1", origin: "http://localhost:3000" }))).status).toBe(403);
  });

  it("answers GET and DELETE with 405 and other paths with 404", async () => {
    const get = await post("", {}, "GET");
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    expect((await post("", {}, "DELETE")).status).toBe(405);
    expect((await post(modern("tools/list"), h("tools/list"), "POST", "/other")).status).toBe(404);
  });

  it("maps protocol errors to 400/404 with the JSON-RPC error and the request id", async () => {
    const noMeta = await post({ jsonrpc: "2.0", id: 7, method: "tools/list", params: {} }, h("tools/list"));
    expect([noMeta.status, noMeta.json.id, noMeta.json.error.code]).toEqual([400, 7, -32602]);
    const v = "1900-01-01";
    const unsupported = await post({ jsonrpc: "2.0", id: 8, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": v } } }, h("tools/list", { "mcp-protocol-version": v }));
    expect(unsupported.status).toBe(400);
    expect(unsupported.json.error).toEqual({ code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28", "2025-11-25"], requested: v } });
    const unknown = await post(modern("frobnicate"), h("frobnicate"));
    expect([unknown.status, unknown.json.error.code]).toEqual([404, -32601]);
    const init = await post(modern("initialize"), h("initialize"));
    expect([init.status, init.json.error.code]).toEqual([404, -32601]);
    const cursor = await post(modern("tools/list", { cursor: "zzz" }), h("tools/list"));
    expect(cursor.json.error).toMatchObject({ code: -32602, message: "Invalid cursor" });
    const parse = await post("{oops", h("tools/list"));
    expect([parse.status, "id" in parse.json, parse.json.error.code]).toEqual([400, false, -32700]);
  });

  it("validates request headers against the body with 400 + -32020", async () => {
    const call = modern("tools/call", { name: "echo", arguments: { text: "x", region: "eu-1" } });
    const cases: Record<string, string>[] = [
      { "mcp-protocol-version": "2025-11-25", "mcp-method": "tools/call", "mcp-name": "echo", "mcp-param-region": "eu-1" },
      { "mcp-protocol-version": "2026-07-28", "mcp-name": "echo", "mcp-param-region": "eu-1" },
      h("tools/list", { "mcp-name": "echo", "mcp-param-region": "eu-1" }),
      h("TOOLS/CALL", { "mcp-name": "echo", "mcp-param-region": "eu-1" }),
      h("tools/call", { "mcp-param-region": "eu-1" }),
      h("tools/call", { "mcp-name": "other", "mcp-param-region": "eu-1" }),
      h("tools/call", { "mcp-name": "echo" }),
      h("tools/call", { "mcp-name": "echo", "mcp-param-region": "eu-2" }),
      h("tools/call", { "mcp-name": "echo", "mcp-param-region": "=?base64?ZXUtMQ?=" }),
    ];
    for (const headers of cases) {
      const res = await post(call, headers);
      expect([res.status, res.json?.error?.code], JSON.stringify(headers)).toEqual([400, -32020]);
    }
    const ok = await post(call, h("tools/call", { "MCP-NAME": "  =?base64?ZWNobw==?=  ", "Mcp-Param-Region": "=?base64?ZXUtMQ==?=" }));
    expect(ok.status).toBe(200);
    expect(ok.json.result.structuredContent).toEqual({ text: "x" });
  });

  it("accepts notifications with 202 and serves 2025 clients per request", async () => {
    const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-protocol-version": "2025-11-25" });
    expect(note.status).toBe(202);
    expect(note.body).toBe("");
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
    expect(init.json.result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "runtime-fixture" } });
    expect(init.headers["mcp-session-id"]).toBeUndefined();
    const ping = await post({ jsonrpc: "2.0", id: 2, method: "ping" }, { "mcp-protocol-version": "2025-11-25" });
    expect(ping.json).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    const list = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" });
    expect(list.json.result.resultType).toBeUndefined();
    expect(list.json.result.ttlMs).toBeUndefined();
  });

  it("rejects bodies over the size limit with 413, read to their end first so the client reads the answer", async () => {
    // Ten in a row: a server that answered while the client was still writing broke some of them (EPIPE).
    for (let i = 0; i < 10; i++) {
      const res = await post("x".repeat(5 * 1024 * 1024), h("tools/list"));
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe("close");
    }
  });

  it("rejects a chunked body over the size limit with 413 once it has been sent", async () => {
    const url = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...h("tools/list") } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      const chunk = "x".repeat(256 * 1024);
      for (let i = 0; i < 20; i++) req.write(chunk); // 5 MiB, no declared length
      req.end();
    });
    expect(status).toBe(413);
  });

  it("aborts a call when the client closes the connection", async () => {
    const url = new URL(server.url);
    await new Promise<void>((resolve) => {
      const req = request({ host: url.hostname, port: url.port, path: "/mcp", method: "POST", headers: { "content-type": "application/json", ...h("tools/call", { "mcp-name": "slow" }) } });
      req.on("error", () => resolve());
      req.end(JSON.stringify(modern("tools/call", { name: "slow", arguments: {} })));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 200);
    });
    await expect.poll(() => server.stderr(), { timeout: 5000 }).toContain("slow: aborted");
  });

  it("exits on SIGTERM running shutdown hooks", async () => {
    const other = await startHttpServer(await bundleEntry(entry));
    expect(await other.stop("SIGTERM")).toBe(0);
    expect(other.stderr()).toContain("shutdown hook ran");
  });
});
