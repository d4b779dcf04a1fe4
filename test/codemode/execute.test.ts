// execute against a real generated server (stdio, the official MCP client) and a loopback upstream:
// a multi-step program, inner-call errors thrown into the program, operations that ask the user
// refused, limits named, and the server answering the next call after each.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, type Connected } from "../helpers/client.js";
import { startUpstream, type Upstream } from "../kinds/http/upstream.js";
import { generateShop } from "./generate.js";

let up: Upstream;
let conn: Connected;

beforeAll(async () => {
  up = await startUpstream();
  up.route = (req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.target.startsWith("/items?")) return void res.end(JSON.stringify([{ id: 1 }, { id: 2 }, { id: 3 }]));
    const id = Number(/\/items\/(\d+)/.exec(req.target)?.[1] ?? 0);
    res.end(JSON.stringify({ id, name: `item ${id}`, price: id * 10 }));
  };
  const bundle = generateShop("code", "{ cpuMs: 300, calls: 8, consoleBytes: 200 }");
  conn = await connectStdio(bundle, "2026-07-28", [], { SHOP_URL: up.origin, SHOP_API_KEY: "upstream-key-0123456789" });
}, 120_000);
afterAll(async () => {
  await conn?.close();
  await up?.close();
});

async function run(code: string) {
  const r = (await conn.client.callTool({ name: "execute", arguments: { code } })) as { content: { text: string }[]; isError?: boolean };
  return { text: r.content.map((c) => c.text).join("\n"), isError: r.isError === true };
}

describe("code mode over stdio", () => {
  it("lists search, describe, execute and call_operation (an operation asks the user)", async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["call_operation", "describe_operation", "execute", "search_operations"]);
  });

  it("describes operations as TypeScript declarations", async () => {
    const r = (await conn.client.callTool({ name: "describe_operation", arguments: { name: "get_item" } })) as { content: { text: string }[] };
    expect(r.content[0].text).toContain("function get_item(args: GetItemInput): Promise<GetItemOutput>");
    expect(r.content[0].text).toMatch(/interface GetItemInput/);
  });

  it("runs a multi-step program and returns only what it returns", async () => {
    const r = await run(`const list = await api.list_items({ limit: 3 });
      const items = await Promise.all(list.map((i) => api.get_item({ id: i.id })));
      console.log("read", items.length);
      return items.filter((i) => i.price > 10).map((i) => i.name);`);
    expect(r.isError).toBe(false);
    expect(JSON.parse(r.text.split("\n")[0])).toEqual(["item 2", "item 3"]);
    expect(r.text).toContain("read 3");
  });

  it("throws a validation error into the program with the JSON pointer, sending nothing", async () => {
    up.seen.length = 0;
    const r = await run(`try { await api.get_item({ id: "7" }); } catch (e) { return { name: e.name, pointers: e.pointers, message: e.message }; }`);
    const v = JSON.parse(r.text);
    expect(v.name).toBe("OperationError");
    expect(v.pointers).toEqual(["/id"]);
    expect(v.message).toContain('"get_item"');
    expect(up.seen).toEqual([]);
  });

  it("refuses an operation that asks for confirmation, naming call_operation", async () => {
    up.seen.length = 0;
    const r = await run(`return await api.create_item({ name: "x", price: 1 });`);
    expect(r.isError).toBe(true);
    expect(r.text).toContain("call_operation");
    expect(up.seen).toEqual([]);
  });

  it("runs a task-only operation synchronously", async () => {
    const r = await run(`return await api.stock_report({});`);
    expect(r.isError).toBe(false);
  });

  it("runs an exec operation", async () => {
    const r = await run(`return await api.shout({ word: "hello" });`);
    expect(JSON.parse(r.text).stdout).toBe("HELLO");
  });

  it("names the limit a program goes past, and the server answers the next call", async () => {
    const cases: [string, RegExp][] = [
      ["for (;;) {}", /CPU time limit \(server\.code\.cpuMs: 300\)/],
      ["function f() { return f() + 1 } return f()", /stack depth limit/],
      ["for (let i = 0; i < 20; i++) await api.get_item({ id: 1 })", /inner calls limit \(server\.code\.calls: 8\)/],
      ["for (;;) console.log('xxxxxxxxxxxxxxxxxxxx')", /console output limit/],
    ];
    for (const [code, limit] of cases) {
      const r = await run(code);
      expect(r.isError, code).toBe(true);
      expect(r.text, code).toMatch(limit);
      expect((await run("return 1 + 1")).text).toBe("2");
    }
  });
});
