// call_operation takes exactly the path of a flat tools/call: the same spec built as flat tools and as a
// catalog, both real server processes on HTTP against one recording upstream, give the same upstream
// request bytes, results, validation errors, confirmation rounds and scope refusals; a call with an
// unknown or hidden name, or arguments its operation refuses, sends nothing and is a readable tool error.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { startUpstream, type Seen, type Upstream } from "../kinds/http/upstream.js";
import { generateShop, post, type Era } from "./generate.js";

const ALL = "all-scopes-token-0123456789";
const READ = "read-only-token-0123456789";
const ERAS: Era[] = ["2026-07-28", "2025-11-25"];

let up: Upstream;
let flat: HttpServer;
let cat: HttpServer;

beforeAll(async () => {
  up = await startUpstream();
  const env = { SHOP_URL: up.origin, SHOP_API_KEY: "upstream-key-0123456789", SHOP_TOKEN_ALL: ALL, SHOP_TOKEN_READ: READ };
  // Both built before either starts: a build (seconds on a busy machine) must not eat into the start timeout.
  const built = [generateShop("tools"), generateShop("catalog")];
  [flat, cat] = await Promise.all([startHttpServer(built[0]!, [], env), startHttpServer(built[1]!, [], env)]);
}, 120_000);
afterAll(async () => {
  await flat?.stop();
  await cat?.stop();
  await up?.close();
});
beforeEach(() => {
  up.seen.length = 0;
  up.route = (req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ id: 7, name: "lamp", method: req.method, target: req.target }));
  };
});

const names = (answer: { json?: any }) => answer.json.result.tools.map((t: { name: string }) => t.name);

/** A flat call and the same call through call_operation; the upstream requests each one sent. */
async function both(era: Era, tool: string, args: Record<string, unknown>, token = ALL, extra: Record<string, unknown> = {}) {
  up.seen.length = 0;
  const a = await post(flat.url, era, "tools/call", { name: tool, arguments: args, ...extra }, token);
  const sentFlat = up.seen.splice(0);
  const b = await post(cat.url, era, "tools/call", { name: "call_operation", arguments: { name: tool, arguments: args }, ...extra }, token);
  const sentCat = up.seen.splice(0);
  return { flat: a, cat: b, sentFlat, sentCat };
}

const wire = (s: Seen[]) => s.map((r) => ({ method: r.method, target: r.target, headers: r.headers, body: r.body.toString("latin1") }));

describe("listing", () => {
  it("lists only the catalog tools in both eras, for every token", async () => {
    for (const era of ERAS) {
      for (const token of [ALL, READ]) expect(names(await post(cat.url, era, "tools/list", {}, token))).toEqual(["call_operation", "describe_operation", "search_operations"]);
      expect(names(await post(flat.url, era, "tools/list", {}, READ))).toEqual(["create_item", "get_item"]);
    }
  });
});

describe("parity with flat tools/call", () => {
  it("sends the same upstream request and answers the same result", async () => {
    for (const era of ERAS) {
      const r = await both(era, "get_item", { id: 7, fields: "short" });
      expect(r.sentFlat).toHaveLength(1);
      expect(wire(r.sentCat)).toEqual(wire(r.sentFlat));
      expect(r.cat.json.result).toEqual(r.flat.json.result);
      expect(r.cat.json.result.structuredContent).toEqual({ id: 7, name: "lamp" });
    }
  });

  it("refuses the same bad arguments with the same error naming the operation and the pointer, sending nothing", async () => {
    for (const era of ERAS) {
      const r = await both(era, "get_item", { id: 0, colour: "red" });
      expect(r.sentFlat).toEqual([]);
      expect(r.sentCat).toEqual([]);
      expect(r.cat.json.result).toEqual(r.flat.json.result);
      expect(r.cat.json.result.isError).toBe(true);
      const text = r.cat.json.result.content[0].text;
      expect(text).toContain('"get_item"');
      expect(text).toContain("/id");
      expect(text).toContain("/colour");
    }
  });

  it("asks the same confirmation, and runs the same request once it is accepted", async () => {
    const args = { name: "desk lamp", price: 12.5 };
    const r = await both("2026-07-28", "create_item", args);
    expect(r.sentFlat).toEqual([]);
    expect(r.sentCat).toEqual([]);
    const first = (x: typeof r.flat) => {
      const { requestState, ...rest } = x.json.result;
      expect(typeof requestState).toBe("string");
      return rest;
    };
    expect(first(r.cat)).toEqual(first(r.flat));
    expect(r.cat.json.result.resultType).toBe("input_required");
    const accept = { confirm: { action: "accept", content: { confirm: true } } };
    const a = await post(flat.url, "2026-07-28", "tools/call", { name: "create_item", arguments: args, inputResponses: accept, requestState: r.flat.json.result.requestState }, ALL);
    const sentFlat = up.seen.splice(0);
    const b = await post(cat.url, "2026-07-28", "tools/call", { name: "call_operation", arguments: { name: "create_item", arguments: args }, inputResponses: accept, requestState: r.cat.json.result.requestState }, ALL);
    const sentCat = up.seen.splice(0);
    expect(sentFlat).toHaveLength(1);
    expect(wire(sentCat)).toEqual(wire(sentFlat));
    expect(b.json.result).toEqual(a.json.result);
  });

  it("does not take one operation's confirmation for another", async () => {
    const args = { name: "desk lamp", price: 12.5 };
    const round = await post(cat.url, "2026-07-28", "tools/call", { name: "call_operation", arguments: { name: "create_item", arguments: args } }, ALL);
    const accept = { confirm: { action: "accept", content: { confirm: true } } };
    const other = await post(cat.url, "2026-07-28", "tools/call", { name: "call_operation", arguments: { name: "create_item", arguments: { ...args, price: 99 } }, inputResponses: accept, requestState: round.json.result.requestState }, ALL);
    expect(up.seen).toEqual([]);
    // A state sealed for other arguments is refused (an error, or a new round), exactly as for a flat call.
    expect(other.json.error !== undefined || other.json.result.resultType === "input_required" || other.json.result.isError === true).toBe(true);
  });

  it("refuses an operation outside the token's scopes and sends nothing", async () => {
    for (const era of ERAS) {
      const r = await both(era, "delete_item", { id: 7 }, READ);
      expect(r.flat.status).toBe(403);
      expect(r.sentFlat).toEqual([]);
      expect(r.sentCat).toEqual([]);
      expect(r.cat.json.result.isError).toBe(true);
      expect(r.cat.json.result.content[0].text).toMatch(/Unknown operation "delete_item"/);
      // With the scope, the same call goes through.
      const allowed = await both(era, "delete_item", { id: 7 });
      expect(wire(allowed.sentCat)).toEqual(wire(allowed.sentFlat));
      expect(allowed.sentCat[0].method).toBe("DELETE");
    }
  });
});

describe("catalog tools", () => {
  const callCat = (era: Era, tool: string, args: Record<string, unknown>, token = ALL) => post(cat.url, era, "tools/call", { name: tool, arguments: args }, token);
  const text = (a: { json?: any }) => a.json.result.content[0].text as string;

  it("answers an unknown name with a tool error and sends nothing", async () => {
    for (const era of ERAS) {
      const a = await callCat(era, "call_operation", { name: "no_such_op", arguments: {} });
      expect(a.json.result.isError).toBe(true);
      expect(text(a)).toMatch(/Unknown operation "no_such_op".*search_operations/);
      const self = await callCat(era, "call_operation", { name: "call_operation", arguments: { name: "get_item" } });
      expect(self.json.result.isError).toBe(true);
    }
    expect(up.seen).toEqual([]);
  });

  it("refuses its own bad arguments readably", async () => {
    const a = await callCat("2026-07-28", "call_operation", { arguments: {} });
    expect(a.json.result.isError).toBe(true);
    expect(text(a)).toContain("/name");
    const s = await callCat("2026-07-28", "search_operations", { query: "", limit: 500 });
    expect(text(s)).toContain("/query");
    expect(text(s)).toContain("/limit");
    expect(up.seen).toEqual([]);
  });

  it("searches and describes only what the token may call", async () => {
    const all = await callCat("2026-07-28", "search_operations", { query: "remove an item" });
    expect(text(all).split("\n")[1]).toMatch(/^delete_item\(id: integer\)/);
    const read = await callCat("2026-07-28", "search_operations", { query: "remove an item" }, READ);
    expect(text(read)).not.toContain("delete_item");
    const hidden = await callCat("2026-07-28", "describe_operation", { name: "delete_item" }, READ);
    expect(hidden.json.result.isError).toBe(true);
    const shown = await callCat("2026-07-28", "describe_operation", { names: ["get_item", "create_item"] }, READ);
    const described = JSON.parse(text(shown));
    expect(described.map((d: { name: string }) => d.name)).toEqual(["get_item", "create_item"]);
    expect(described[1].confirm).toBe(true);
    expect(described[0].inputSchema.required).toEqual(["id"]);
  });

  it("pages a search with a cursor and refuses a cursor it did not give", async () => {
    const first = await callCat("2026-07-28", "search_operations", { query: "item", limit: 2 });
    expect(text(first)).toContain('cursor "2"');
    const next = await callCat("2026-07-28", "search_operations", { query: "item", limit: 2, cursor: "2" });
    expect(text(next).split("\n")).toHaveLength(3);
    const bad = await callCat("2026-07-28", "search_operations", { query: "item", cursor: "x1" });
    expect(bad.json.result.isError).toBe(true);
  });

  it("logs a call_operation under the operation's name", async () => {
    await callCat("2026-07-28", "call_operation", { name: "get_item", arguments: { id: 3 } });
    await new Promise((r) => setTimeout(r, 100));
    expect(cat.stderr()).toMatch(/method=tools\/call tool=get_item /);
  });
});
