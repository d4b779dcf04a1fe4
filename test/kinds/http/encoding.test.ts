// The encoding corpus, checked at the request the upstream actually received.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpHandler, type HttpToolConfig } from "../../../templates/kinds/http/index.js";
import { ctx, input, lit, startUpstream, toolConfig, type Upstream } from "./upstream.js";

let up: Upstream;
beforeAll(async () => void (up = await startUpstream()));
afterAll(() => up.close());
beforeEach(() => void (up.seen.length = 0));

async function call(cfg: HttpToolConfig, args: Record<string, unknown>) {
  return createHttpHandler(cfg, { env: { T_BASE_URL: up.origin } })(args, ctx());
}
const pathTool = toolConfig({ path: [[lit("items")], [input("id")], [lit("v"), input("id"), lit(".json")]] });

describe("path segments", () => {
  const encoded: [unknown, string][] = [
    ["a/b", "a%2Fb"],
    ["a?b", "a%3Fb"],
    ["a#b", "a%23b"],
    ["a b+c", "a%20b%2Bc"],
    ["日本", "%E6%97%A5%E6%9C%AC"],
    ["%2e%2ex", "%252e%252ex"],
    ["...", "..."],
    ["it's(*)!", "it%27s%28%2A%29%21"],
    ["\ud800x", "%EF%BF%BDx"],
    [42, "42"],
    [-1.5e-7, "-1.5e-7"],
    [true, "true"],
  ];
  it.each(encoded)("%j travels as one segment %s", async (value, wire) => {
    const out = await call(pathTool, { id: value });
    expect(out.isError).toBeFalsy();
    expect(up.seen[0]!.target).toBe(`/items/${wire}/v${wire}.json`);
  });

  const refused = ["..", ".", "%2e%2e", "%2E.", ".%2e", "%252e%252e", "../", "..\\x", "a/../b", "./x", "%2e%2e%2f"];
  it.each(refused)("%j is refused before any request", async (value) => {
    const out = await call(toolConfig({ path: [[lit("items")], [input("id")]] }), { id: value });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/input\.id must not be or contain a "\." or "\.\." path segment/);
    expect(up.seen).toHaveLength(0);
  });

  // ".." percent-encoded n times over (the tool's own encoding adds one more level).
  const encodedTimes = (s: string, n: number) => Array.from({ length: n }).reduce<string>((v) => v.replace(/%/g, "%25"), s.replace(/\./g, "%2e"));
  it.each([3, 4, 5, 6, 9])("\"..\" percent-encoded %i times over is refused too", async (n) => {
    for (const value of [encodedTimes("..", n - 1), encodedTimes("a/../b", n - 1), encodedTimes("%2E%2E", n - 1)]) {
      const out = await call(toolConfig({ path: [[lit("items")], [input("id")]] }), { id: value });
      expect(out.isError, value).toBe(true);
      expect(out.text).toMatch(/input\.id must not be or contain a "\." or "\.\." path segment|input\.id is percent-encoded too many times over/);
    }
    expect(up.seen).toHaveLength(0);
  });

  it("a value that keeps decoding past any sensible depth is refused, not decoded forever", async () => {
    const out = await call(toolConfig({ path: [[lit("items")], [input("id")]] }), { id: "%" + "25".repeat(2000) + "2e" });
    expect(out.isError).toBe(true);
    expect(out.text).toBe('input.id is percent-encoded too many times over to check it for "." and ".." segments');
    expect(up.seen).toHaveLength(0);
  });

  it("a dot segment formed with a literal is refused too", async () => {
    const out = await call(toolConfig({ path: [[lit("."), input("id")]] }), { id: "." });
    expect(out.isError).toBe(true);
    expect(up.seen).toHaveLength(0);
  });

  it("an absent, empty or non-scalar path value is a tool error", async () => {
    const cfg = toolConfig({ path: [[input("id")]] });
    expect((await call(cfg, {})).text).toMatch(/input\.id is required/);
    expect((await call(cfg, { id: "" })).text).toMatch(/must not be empty/);
    expect((await call(cfg, { id: ["a"] })).text).toMatch(/must be a string, number or boolean/);
    expect(up.seen).toHaveLength(0);
  });

  it("a trailing slash and the root path are kept", async () => {
    await call(toolConfig({ path: [[lit("items")], []] }), {});
    await call(toolConfig({ path: [[]] }), {});
    await call(toolConfig({ basePath: "/v1", path: [[input("id")], []] }), { id: "a b" });
    // the override (the test upstream) replaces the base URL, basePath included
    expect(up.seen.map((s) => s.target)).toEqual(["/items/", "/", "/a%20b/"]);
  });

  it("an input that looks like a URL never changes the host", async () => {
    const out = await call(toolConfig({ path: [[input("id")]] }), { id: "http://evil.example:81/x" });
    expect(out.isError).toBeFalsy();
    expect(up.seen[0]!.target).toBe("/http%3A%2F%2Fevil.example%3A81%2Fx");
    expect(up.seen[0]!.headers.host).toBe(`127.0.0.1:${up.port}`);
  });
});

describe("query", () => {
  const values = ["a&b=c", "x+y z", "#frag", "?q", "日本語", "100%", "'\"<>", "line\nbreak", "~*!()"];
  it.each(values)("%j is encoded exactly as URLSearchParams encodes it", async (value) => {
    await call(toolConfig({ query: [{ name: "q&x", value: [lit("pre "), input("v")] }] }), { v: value });
    const expected = new URLSearchParams([["q&x", "pre " + value]]).toString();
    expect(up.seen[0]!.target).toBe(`/?${expected}`);
    expect(new URL(up.seen[0]!.target, "http://h").searchParams.get("q&x")).toBe("pre " + value);
  });

  it("a field named like an Object.prototype member is absent unless given", async () => {
    const cfg = toolConfig({ query: [{ name: "c", value: [input("constructor")] }, { name: "t", value: [input("toString")] }] });
    expect((await call(cfg, {})).isError).toBeFalsy();
    await call(cfg, { toString: "x" });
    expect(up.seen.map((s) => s.target)).toEqual(["/", "/?t=x"]);
  });

  it("absent and null optional inputs leave their parameter out", async () => {
    const cfg = toolConfig({
      query: [
        { name: "a", value: [input("a")] },
        { name: "b", value: [lit("x-"), input("b")] },
        { name: "c", value: [input("c")] },
        { name: "fixed", value: [lit("1")] },
      ],
    });
    await call(cfg, { c: null });
    expect(up.seen[0]!.target).toBe("/?fixed=1");
    await call(cfg, { a: "", b: 0 });
    expect(up.seen[1]!.target).toBe("/?a=&b=x-0&fixed=1"); // present-but-empty is sent
  });

  it.each([
    ["repeat", "/?tag=a%2Cb&tag=c+d&tag=1"],
    ["comma", "/?tag=a%2Cb,c+d,1"],
    ["pipe", "/?tag=a%2Cb%7Cc+d%7C1"],
    ["space", "/?tag=a%2Cb%20c+d%201"],
  ] as const)("array style %s", async (style, target) => {
    await call(toolConfig({ query: [{ name: "tag", array: { input: "tags", style } }] }), { tags: ["a,b", "c d", 1] });
    expect(up.seen[0]!.target).toBe(target);
  });

  it("an absent or empty array sends nothing", async () => {
    const cfg = toolConfig({ query: [{ name: "tag", array: { input: "tags", style: "comma" } }] });
    await call(cfg, {});
    await call(cfg, { tags: [] });
    expect(up.seen.map((s) => s.target)).toEqual(["/", "/"]);
  });
});

describe("headers", () => {
  const cfg = toolConfig({ headers: [{ name: "X-Note", value: [lit("note: "), input("note")] }] });
  it.each(["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\0b", "a\x01b"])("%j is refused, naming the field", async (note) => {
    const out = await call(cfg, { note });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/input\.note cannot go in header X-Note: it contains CR, LF, NUL/);
    expect(up.seen).toHaveLength(0);
  });

  it("unicode is sent as UTF-8 bytes, tabs and quotes as they are", async () => {
    await call(cfg, { note: "café 日本\t\"q\"" });
    expect(Buffer.from(up.seen[0]!.headers["x-note"]!, "latin1").toString("utf8")).toBe('note: café 日本\t"q"');
  });

  it("an absent optional value leaves the header out", async () => {
    await call(cfg, {});
    expect(up.seen[0]!.headers["x-note"]).toBeUndefined();
  });
});

describe("bodies", () => {
  const jsonTool = toolConfig({
    method: "POST",
    body: {
      kind: "json",
      template: {
        object: [
          ["title", { input: "title" }],
          ["count", { input: "count" }],
          ["flags", { array: [{ input: "flag" }, { json: "fixed" }] }],
          ["meta", { input: "meta" }],
          ["label", { text: [lit("«"), input("title"), lit("»")] }],
          ["__proto__", { json: { polluted: true } }],
          ["opt", { input: "missing" }],
        ],
      },
    },
  });

  it("JSON bodies insert typed values; quotes, newlines and unicode survive", async () => {
    const title = 'He said "hi"\n\tand left \\ 日本 \u2028 </script>';
    const out = await call(jsonTool, { title, count: 3, flag: false, meta: { a: [1, null] } });
    expect(out.isError).toBeFalsy();
    const seen = up.seen[0]!;
    expect(seen.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(seen.body.toString("utf8"));
    expect(Object.keys(body)).toEqual(["title", "count", "flags", "meta", "label", "__proto__"]); // "opt" absent
    expect(body).toMatchObject({ title, count: 3, flags: [false, "fixed"], meta: { a: [1, null] }, label: `«${title}»` });
    expect(Object.getOwnPropertyDescriptor(body, "__proto__")?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("form bodies encode as URLSearchParams and leave absent fields out", async () => {
    const cfg = toolConfig({
      method: "POST",
      body: { kind: "form", fields: [{ name: "msg", value: [input("msg")] }, { name: "skip", value: [input("none")] }, { name: "ids", array: { input: "ids", style: "repeat" } }] },
    });
    await call(cfg, { msg: "a&b=c d\n日本", ids: [1, 2] });
    const seen = up.seen[0]!;
    expect(seen.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(seen.body.toString()).toBe(new URLSearchParams([["msg", "a&b=c d\n日本"], ["ids", "1"], ["ids", "2"]]).toString());
  });
});
