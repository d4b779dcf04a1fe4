// An inner call from an execute program takes exactly the path of a flat tools/call: the shop spec built
// as flat tools and in code mode, both real server processes on HTTP with bearer tokens against one
// recording loopback upstream, in both protocol eras. The same call sends the same upstream request
// bytes and gives the same result and the same validation error; an operation outside the token's
// scopes is not in `api`; an operation that asks for confirmation never runs from a program.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { startUpstream, type Seen, type Upstream } from "../kinds/http/upstream.js";
import { post, type Era } from "../catalog/generate.js";
import { generateShop } from "./generate.js";

const ALL = "all-scopes-token-0123456789";
const READ = "read-only-token-0123456789";
const ERAS: Era[] = ["2026-07-28", "2025-11-25"];

let up: Upstream;
let flat: HttpServer;
let code: HttpServer;

beforeAll(async () => {
  up = await startUpstream();
  const env = { SHOP_URL: up.origin, SHOP_API_KEY: "upstream-key-0123456789", SHOP_TOKEN_ALL: ALL, SHOP_TOKEN_READ: READ };
  [flat, code] = await Promise.all([startHttpServer(generateShop("tools"), [], env), startHttpServer(generateShop("code"), [], env)]);
}, 120_000);
afterAll(async () => {
  await flat?.stop();
  await code?.stop();
  await up?.close();
});
beforeEach(() => {
  up.seen.length = 0;
  up.route = (req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ id: 7, name: "lamp", price: 3.5, method: req.method, target: req.target }));
  };
});

const wire = (s: Seen[]) => s.map((r) => ({ method: r.method, target: r.target, headers: r.headers, body: r.body.toString("latin1") }));
const text = (a: { json?: any }) => (a.json.result.content as { text: string }[]).map((c) => c.text).join("\n");

/** A flat tools/call, then a program that makes the same call; each one's answer and upstream requests. */
async function both(era: Era, tool: string, args: Record<string, unknown>, program: string, token = ALL) {
  up.seen.length = 0;
  const a = await post(flat.url, era, "tools/call", { name: tool, arguments: args }, token);
  const sentFlat = up.seen.splice(0);
  const b = await post(code.url, era, "tools/call", { name: "execute", arguments: { code: program } }, token);
  const sentCode = up.seen.splice(0);
  return { flat: a, code: b, sentFlat, sentCode };
}

describe("an inner call and a flat tools/call", () => {
  it("send the same upstream request bytes and give the same result", async () => {
    for (const era of ERAS) {
      const args = { id: 7, fields: "short" };
      const r = await both(era, "get_item", args, `return await api.get_item(${JSON.stringify(args)});`);
      expect(r.sentFlat).toHaveLength(1);
      expect(wire(r.sentCode)).toEqual(wire(r.sentFlat));
      expect(r.code.json.result.isError).not.toBe(true);
      expect(JSON.parse(r.code.json.result.content[0].text)).toEqual(r.flat.json.result.structuredContent);
      expect(r.flat.json.result.structuredContent).toEqual({ id: 7, name: "lamp", price: 3.5 });
    }
  });

  it("refuse the same bad arguments with the same error, sending nothing", async () => {
    for (const era of ERAS) {
      const args = { id: 0, colour: "red" };
      const program = `try { await api.get_item(${JSON.stringify(args)}); return "sent"; } catch (e) { return { message: e.message, pointers: e.pointers, operation: e.operation }; }`;
      const r = await both(era, "get_item", args, program);
      expect(r.sentFlat).toEqual([]);
      expect(r.sentCode).toEqual([]);
      expect(r.flat.json.result.isError).toBe(true);
      const thrown = JSON.parse(r.code.json.result.content[0].text);
      expect(thrown.message).toBe(text(r.flat));
      expect(thrown.operation).toBe("get_item");
      expect(thrown.pointers).toEqual(expect.arrayContaining(["/id", "/colour"]));
    }
  });
});

describe("scopes", () => {
  const keys = `return Object.keys(api).sort();`;

  it("leave an operation outside the token's scopes out of api, and a call to it sends nothing", async () => {
    for (const era of ERAS) {
      const all = await post(code.url, era, "tools/call", { name: "execute", arguments: { code: keys } }, ALL);
      const read = await post(code.url, era, "tools/call", { name: "execute", arguments: { code: keys } }, READ);
      expect(JSON.parse(all.json.result.content[0].text)).toContain("delete_item");
      const readable = JSON.parse(read.json.result.content[0].text) as string[];
      expect(readable).not.toContain("delete_item");
      expect(readable).toContain("get_item");
      const call = await post(code.url, era, "tools/call", { name: "execute", arguments: { code: `return typeof api.delete_item;` } }, READ);
      expect(JSON.parse(call.json.result.content[0].text)).toBe("undefined");
      const attempt = await post(code.url, era, "tools/call", { name: "execute", arguments: { code: `return await api.delete_item({ id: 7 });` } }, READ);
      expect(attempt.json.result.isError).toBe(true);
      expect(up.seen).toEqual([]);
      // The flat server refuses the same token the same call.
      expect((await post(flat.url, era, "tools/call", { name: "delete_item", arguments: { id: 7 } }, READ)).status).toBe(403);
      expect(up.seen).toEqual([]);
    }
  });
});

describe("confirmation", () => {
  const program = `return await api.create_item({ name: "desk lamp", price: 12.5 });`;
  const accept = { confirm: { action: "accept", content: { confirm: true } } };

  it("an operation that asks for confirmation never runs from a program, even with an accept sent alongside", async () => {
    for (const era of ERAS) {
      const r = await post(code.url, era, "tools/call", { name: "execute", arguments: { code: program } }, ALL);
      expect(r.json.result.isError).toBe(true);
      expect(text(r)).toContain("call_operation");
      const pushed = await post(code.url, era, "tools/call", { name: "execute", arguments: { code: program }, inputResponses: accept, requestState: "forged" }, ALL);
      expect(pushed.json.error !== undefined || pushed.json.result.isError === true).toBe(true);
      expect(up.seen).toEqual([]);
    }
  });

  it("runs through call_operation only after the user's yes, with the flat request", async () => {
    const args = { name: "desk lamp", price: 12.5 };
    const ask = await post(code.url, "2026-07-28", "tools/call", { name: "call_operation", arguments: { name: "create_item", arguments: args } }, ALL);
    expect(ask.json.result.resultType).toBe("input_required");
    expect(up.seen).toEqual([]);
    const flatAsk = await post(flat.url, "2026-07-28", "tools/call", { name: "create_item", arguments: args }, ALL);
    await post(flat.url, "2026-07-28", "tools/call", { name: "create_item", arguments: args, inputResponses: accept, requestState: flatAsk.json.result.requestState }, ALL);
    const sentFlat = up.seen.splice(0);
    await post(code.url, "2026-07-28", "tools/call", { name: "call_operation", arguments: { name: "create_item", arguments: args }, inputResponses: accept, requestState: ask.json.result.requestState }, ALL);
    const sentCode = up.seen.splice(0);
    expect(sentFlat).toHaveLength(1);
    expect(wire(sentCode)).toEqual(wire(sentFlat));
  });
});
