// The escape and abuse corpus: each program runs against a real generated code-mode server (stdio,
// the official MCP client). None reaches the host (no process, require, module, host globals or
// prototype of the server), none crashes the server: each answers, and the next call is answered.
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
    res.end(JSON.stringify({ id: 1, name: "lamp", price: 3, __proto__: { polluted: true } }));
  };
  const bundle = generateShop("code", "{ cpuMs: 300, calls: 20, consoleBytes: 4096, memoryBytes: 8388608, resultBytes: 4096, argumentBytes: 4096 }");
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

/** Programs that must fail with a readable error. */
const FAILS: [string, string][] = [
  ["process", "return process.pid"],
  ["require", "return require('fs')"],
  ["dynamic import", "return await import('node:fs')"],
  ["dynamic import of child_process", "const m = await import('child_process'); return m.exec"],
  ["static import", "import fs from 'fs'; return 1"],
  ["host global", "return host('call', 'get_item', '{}')"],
  ["Function chain to process", "return (function(){}).constructor('return process')().pid"],
  ["async Function chain", "return (async function(){}).constructor('return require')()"],
  ["constructor of api function", "return api.get_item.constructor('return process')().version"],
  ["Buffer", "return Buffer.from('x')"],
  ["setTimeout", "await new Promise((r) => setTimeout(r, 10)); return 1"],
  ["fetch", "return await fetch('http://127.0.0.1')"],
  ["WebAssembly", "return new WebAssembly.Memory({ initial: 1 })"],
  ["std module", "const std = await import('std'); return std"],
  ["infinite loop", "for (;;) {}"],
  ["infinite loop in catch", "for (;;) { try { for (;;) {} } catch (e) {} }"],
  ["loop in finally", "try { return 1 } finally { for (;;) {} }"],
  ["deep recursion", "const f = (n) => f(n + 1) + 1; return f(0)"],
  ["recursive JSON", "const a = []; let c = a; for (let i = 0; i < 1e6; i++) { const n = []; c.push(n); c = n } return a"],
  ["memory bomb array", "const a = []; for (;;) a.push(new Array(1e5).fill(1))"],
  ["memory bomb string", "let s = 'x'; for (;;) s = s + s"],
  ["promise flood", "for (;;) Promise.resolve().then(() => 1)"],
  ["promise never settles", "await new Promise(() => {})"],
  ["huge console output", "for (;;) console.log('x'.repeat(100))"],
  ["cycle argument", "const a = {}; a.self = a; return await api.get_item(a)"],
  ["function argument", "return await api.get_item({ id: 1, fields: () => 1 })"],
  ["BigInt argument", "return await api.get_item({ id: 1n })"],
  ["undefined property", "return await api.get_item({ id: undefined })"],
  ["NaN argument", "return await api.get_item({ id: NaN })"],
  ["symbol argument", "return await api.get_item({ id: Symbol('x') })"],
  ["huge string argument", "return await api.get_item({ id: 1, fields: 'x'.repeat(100000) })"],
  ["array as arguments", "return await api.get_item([1])"],
  ["throwing getter", "return await api.get_item({ get id() { throw new Error('getter') } })"],
  ["throwing toJSON", "return await api.get_item({ id: 1, toJSON() { throw new Error('toJSON') } })"],
  ["Proxy trap that throws", "return await api.get_item(new Proxy({}, { ownKeys() { throw new Error('trap') } }))"],
  ["inner call validation error uncaught", "return await api.get_item({ id: 'seven' })"],
  ["unknown operation", "return await api.no_such_op({})"],
  ["scope-free hidden confirm op", "return await api.create_item({ name: 'a', price: 1 })"],
  ["too many inner calls", "await Promise.all(Array.from({ length: 50 }, () => api.get_item({ id: 1 })))"],
  ["result too large", "return 'x'.repeat(10000)"],
  ["BigInt result", "return 10n"],
  ["cyclic result", "const a = {}; a.a = a; return a"],
  ["throws a string", "throw 'plain'"],
  ["throws an object with a throwing getter", "throw { get message() { throw new Error('x') } }"],
  ["syntax error", "return {"],
  ["TypeScript annotation", "const x: number = 1; return x"],
  ["interrupt via getter loop", "const o = { get x() { for (;;) {} } }; return o.x"],
];

/** Programs that run but must show the sandbox holds (no host reach, no pollution). */
const HOLDS: [string, string, (v: any) => void][] = [
  ["globalThis has no host objects", "return Object.getOwnPropertyNames(globalThis).filter((n) => ['process', 'require', 'module', 'Buffer', 'host', 'global', 'setTimeout', 'fetch'].includes(n))", (v) => expect(v).toEqual([])],
  ["typeof host names", "return [typeof process, typeof require, typeof module, typeof host, typeof __filename]", (v) => expect(v).toEqual(["undefined", "undefined", "undefined", "undefined", "undefined"])],
  ["prototype pollution stays inside", "Object.prototype.polluted = 'yes'; Array.prototype.push = null; JSON.parse = null; return await api.get_item({ id: 1 })", (v) => expect(v).toEqual({ id: 1, name: "lamp", price: 3 })],
  ["returned __proto__ key is data", "return JSON.parse('{\"__proto__\": {\"admin\": true}, \"a\": 1}')", (v) => expect(Object.getPrototypeOf(v)).toBe(Object.prototype)],
  ["replaced Promise does not break api", "globalThis.Promise = function () { throw new Error('no') }; return await api.get_item({ id: 1 })", (v) => expect(v.id).toBe(1)],
  ["api is frozen", "try { api.get_item = () => 1 } catch (e) {} return Object.isFrozen(api)", (v) => expect(v).toBe(true)],
  ["scope or confirm: api lists operations", "return Object.keys(api).sort()", (v) => expect(v).toEqual(["create_item", "delete_item", "get_item", "list_items", "shout", "stock_report"])],
];

describe("escape and abuse corpus", () => {
  it("has at least 40 programs", () => expect(FAILS.length + HOLDS.length).toBeGreaterThanOrEqual(40));

  for (const [label, code] of FAILS) {
    it(`fails readably: ${label}`, async () => {
      const r = await run(code);
      expect(r.isError, `${label}: ${r.text}`).toBe(true);
      expect(r.text.length).toBeGreaterThan(10);
      expect(r.text).not.toMatch(/upstream-key/);
      expect((await run("return 40 + 2")).text).toBe("42");
    });
  }

  for (const [label, code, check] of HOLDS) {
    it(`holds: ${label}`, async () => {
      const r = await run(code);
      expect(r.isError, `${label}: ${r.text}`).toBe(false);
      check(JSON.parse(r.text.split("\n")[0]));
      expect((await run("return 40 + 2")).text).toBe("42");
    });
  }

  it("a program still running when the client cancels is stopped, and the server answers the next call", async () => {
    const ac = new AbortController();
    const pending = conn.client.callTool({ name: "execute", arguments: { code: "await api.get_item({ id: 1 }); for (;;) {}" } }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    // Either the client gives up on it, or the server has already stopped it (CPU limit): never a result.
    const outcome = await pending.then((r) => r as { isError?: boolean }, () => ({ isError: true }));
    expect(outcome.isError).toBe(true);
    expect((await run("return 40 + 2")).text).toBe("42");
  });
});
