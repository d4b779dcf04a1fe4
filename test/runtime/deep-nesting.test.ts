// Values nested thousands of levels deep (cursor, uri, arguments, _meta) are legal JSON: every request
// carrying one gets exactly one well-formed answer, over stdio and over HTTP, and the server keeps serving.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { rawPost, MODERN_META } from "../helpers/raw-http.js";
import { spawnRaw, type RawServer } from "./raw.js";

const entry = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
const DEPTH = 5000;
// Frames are built as text: the test process never parses or serializes the deep values itself.
const deepArray = "[".repeat(DEPTH) + "]".repeat(DEPTH);
const deepObject = '{"a":'.repeat(DEPTH) + "1" + "}".repeat(DEPTH);
const meta = JSON.stringify(MODERN_META).slice(1, -1);

/** [method, the params members as JSON text (without _meta)] */
const cases: [string, string][] = [
  ["tools/list", `"cursor":${deepArray}`],
  ["tools/list", `"cursor":${deepObject}`],
  ["prompts/list", `"cursor":${deepArray}`],
  ["resources/list", `"cursor":${deepObject}`],
  ["resources/templates/list", `"cursor":${deepArray}`],
  ["resources/read", `"uri":${deepArray}`],
  ["resources/read", `"uri":${deepObject}`],
  ["prompts/get", `"name":${deepObject}`],
  ["tools/call", `"name":${deepArray}`],
  ["tools/call", `"name":"echo","arguments":{"text":${deepArray}}`],
  ["tools/call", `"name":"echo","arguments":${deepObject}`],
  ["tools/call", `"name":"add","arguments":{"a":${deepObject},"b":1}`],
  ["frobnicate", `"x":${deepArray}`],
];

const frame = (id: number, method: string, members: string, metaText = meta) =>
  `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":{${members},"_meta":{${metaText}}}}`;

function wellFormed(msg: Record<string, unknown>, id: number): void {
  expect(msg.jsonrpc).toBe("2.0");
  expect(msg.id).toBe(id);
  expect("result" in msg !== "error" in msg).toBe(true);
  if ("error" in msg) expect(msg.error).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
}

describe("deeply nested values over stdio", () => {
  let server: RawServer;
  beforeAll(async () => {
    server = spawnRaw(await bundleEntry(entry));
  });
  afterAll(() => {
    server?.proc.kill();
  });

  it("answers every request exactly once", async () => {
    cases.forEach(([method, members], i) => server.send(frame(i + 1, method, members)));
    server.send(frame(100, "tools/list", `"x":1`, `${meta},"deep":${deepArray}`));
    const seen = new Map<number, Record<string, unknown>>();
    while (seen.size < cases.length + 1) {
      const msg = await server.next();
      expect(seen.has(msg.id as number), `second answer for ${msg.id}`).toBe(false);
      seen.set(msg.id as number, msg);
    }
    for (const [id, msg] of seen) wellFormed(msg, id);
    expect(seen.get(1)!.error).toMatchObject({ code: -32602, message: "Invalid cursor" });
    expect(seen.get(100)!.result).toBeDefined();
    // Still serving, nothing extra queued.
    server.send(JSON.stringify({ jsonrpc: "2.0", id: 200, method: "tools/list", params: { _meta: MODERN_META } }));
    expect((await server.next()).id).toBe(200);
  });
});

describe("deeply nested values over HTTP", () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttpServer(await bundleEntry(entry));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers every request with one JSON-RPC body, never a 500", async () => {
    for (const [i, [method, members]] of cases.entries()) {
      const headers: Record<string, string> = { "mcp-protocol-version": "2026-07-28", "mcp-method": method };
      if (members.startsWith(`"name":"`)) headers["mcp-name"] = /^"name":"(\w+)"/.exec(members)![1];
      const res = await rawPost(server.url, frame(i + 1, method, members), headers);
      expect(res.status, `${method} ${i + 1}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      expect(res.json, res.body.slice(0, 200)).toBeDefined();
      wellFormed(res.json, i + 1);
    }
  });
});
