// Wire details checked by hand against both revisions' spec and schema, as raw frames (no SDK): the
// capabilities a server declares, error responses to messages whose id cannot be read, ids that
// cannot be echoed exactly, a cancelled request's HTTP answer, and an unsupported version header.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { rawPost } from "../helpers/raw-http.js";
import { META, spawnRaw } from "./raw.js";

const entry = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
let bundle: string;
let server: HttpServer;

beforeAll(async () => {
  bundle = await bundleEntry(entry);
  server = await startHttpServer(bundle);
});
afterAll(async () => {
  await server?.stop();
});

const modern = (method: string, params: Record<string, unknown> = {}, id: unknown = 1) => ({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } });
const h = (method: string) => ({ "mcp-protocol-version": "2026-07-28", "mcp-method": method });
const legacyHeaders = { "mcp-protocol-version": "2025-11-25" };
const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };

describe("capabilities: exactly what is served, the same in both eras", () => {
  it("a server with tools only declares tools, and answers prompts/* and resources/* with -32601", async () => {
    const discover = await rawPost(server.url, modern("server/discover"), h("server/discover"));
    expect(discover.json.result.capabilities).toEqual({ tools: {} });
    const init = await rawPost(server.url, initialize);
    expect(init.json.result.capabilities).toEqual({ tools: {} });
    for (const method of ["prompts/list", "prompts/get", "resources/list", "resources/templates/list", "resources/read"]) {
      const now = await rawPost(server.url, modern(method, { name: "x", uri: "x" }), { ...h(method), "mcp-name": "x" });
      expect([now.status, now.json.error.code], method).toEqual([404, -32601]);
      const old = await rawPost(server.url, { jsonrpc: "2.0", id: 2, method, params: { name: "x", uri: "x" } }, legacyHeaders);
      expect([old.status, old.json.error.code], method).toEqual([200, -32601]);
    }
  });
});

describe("error responses to a message whose id cannot be read have no id", () => {
  const unreadable: [string, string][] = [
    ["unparsable", "{oops"],
    ["batch", JSON.stringify([modern("tools/list")])],
    ["not an object", "42"],
    ["null id", JSON.stringify({ ...modern("tools/list"), id: null })],
    ["object id", JSON.stringify({ ...modern("tools/list"), id: { a: 1 } })],
  ];

  it.each(unreadable)("over HTTP: %s", async (_name, frame) => {
    const res = await rawPost(server.url, frame, h("tools/list"));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ jsonrpc: "2.0", error: expect.objectContaining({ code: expect.any(Number), message: expect.any(String) }) });
    expect("id" in res.json).toBe(false);
  });

  it("over stdio, each of them", async () => {
    const s = spawnRaw(bundle);
    for (const [name, frame] of unreadable) {
      s.send(frame);
      const msg = await s.next();
      expect("id" in msg, name).toBe(false);
      expect(msg.error, name).toMatchObject({ code: expect.any(Number) });
    }
    s.proc.stdin!.end();
    await s.exited;
  });
});

describe("an integer id beyond 2^53 is refused, never echoed changed", () => {
  // 2^70 and -2^60: JSON.parse reads them as the nearest doubles, which print differently.
  const frames = ['{"jsonrpc":"2.0","id":1180591620717411303424,"method":"tools/list","params":{"_meta":' + JSON.stringify(META) + "}}", '{"jsonrpc":"2.0","id":-1152921504606846976,"method":"tools/list","params":{"_meta":' + JSON.stringify(META) + "}}"];

  it("over HTTP", async () => {
    for (const frame of frames) {
      const res = await rawPost(server.url, frame, h("tools/list"));
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringContaining("integer between -(2^53 - 1) and 2^53 - 1") } });
    }
    // The largest exact integer is served and echoed as sent.
    const edge = await rawPost(server.url, '{"jsonrpc":"2.0","id":9007199254740991,"method":"tools/list","params":{"_meta":' + JSON.stringify(META) + "}}", h("tools/list"));
    expect(edge.body).toMatch(/^\{"jsonrpc":"2.0","id":9007199254740991,"result":/);
  });

  it("over stdio", async () => {
    const s = spawnRaw(bundle);
    for (const frame of frames) {
      s.send(frame);
      expect(await s.next()).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: expect.stringContaining("2^53") } });
    }
    s.proc.stdin!.end();
    await s.exited;
  });
});

describe("an MCP-Protocol-Version header naming a version not served", () => {
  it("is answered 400 with UnsupportedProtocolVersionError (-32022), naming it, when the body has no version of its own", async () => {
    const res = await rawPost(server.url, { jsonrpc: "2.0", id: 4, method: "tools/list", params: {} }, { "mcp-protocol-version": "abc", "mcp-method": "tools/list" });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ jsonrpc: "2.0", id: 4, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28", "2025-11-25"], requested: "abc" } } });
    // A body that names a version the header contradicts is still a header mismatch.
    const mismatch = await rawPost(server.url, modern("tools/list", {}, 5), { "mcp-protocol-version": "abc", "mcp-method": "tools/list" });
    expect([mismatch.status, mismatch.json.error.code]).toEqual([400, -32020]);
    // The version we serve, with no _meta: still the missing-_meta -32602.
    const missing = await rawPost(server.url, { jsonrpc: "2.0", id: 6, method: "tools/list", params: {} }, h("tools/list"));
    expect([missing.status, missing.json.error.code]).toEqual([400, -32602]);
  });
});

describe("2025-11-25 over HTTP: a cancelled request's POST still gets a response", () => {
  const slow = (id: number, accept?: string) => rawPost(server.url, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow", arguments: {} } }, { ...legacyHeaders, ...(accept ? { accept } : {}) });
  const cancel = (id: number) => rawPost(server.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }, legacyHeaders);

  async function cancelWhenRunning(id: number, answer: Promise<unknown>): Promise<void> {
    // A cancellation that arrives before the call is in flight stops nothing: it is sent again until the call answers.
    for (;;) {
      const note = await cancel(id);
      expect(note.status).toBe(202);
      if (await Promise.race([answer.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))])) return;
    }
  }

  it("an event stream that ends with no message, never a bare 202", async () => {
    const call = slow(21);
    await cancelWhenRunning(21, call);
    const res = await call;
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/event-stream");
    expect(res.body).toBe("");
  });

  it("a JSON error matched by id for a client that takes no stream", async () => {
    const call = slow(22, "application/json");
    await cancelWhenRunning(22, call);
    const res = await call;
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.json).toEqual({ jsonrpc: "2.0", id: 22, error: { code: -32000, message: "Request cancelled by the client" } });
  });
});
