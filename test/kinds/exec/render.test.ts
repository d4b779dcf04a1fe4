// Argument binding: one template, one argv item; values rendered exactly; bad values refused by name.
import { describe, expect, it } from "vitest";
import { createExecHandler } from "../../../templates/kinds/exec/index.js";
import { ArgumentError, renderArgv, renderValue } from "../../../templates/kinds/exec/render.js";
import { argvTool, ctx } from "./helpers.js";

const run = async (templates: Parameters<typeof argvTool>[0], fields: Parameters<typeof argvTool>[1], args: Record<string, unknown>) => {
  const out = await createExecHandler(argvTool(templates, fields))(args, ctx());
  return out;
};
const argvOf = (out: { value?: unknown }) => JSON.parse((out.value as { stdout: string }).stdout) as string[];

describe("number and boolean rendering", () => {
  it.each([
    [1.0, "1"],
    [1e2, "100"],
    [-0, "0"],
    [0.1, "0.1"],
    [1e21, "1e+21"],
    [1e-7, "1e-7"],
    [-2.5, "-2.5"],
    [123456789.125, "123456789.125"],
  ])("number %s renders as %s", (n, text) => {
    expect(renderValue("n", "number", n)).toBe(text);
  });
  it("integers use the same normalized text and refuse fractions and unsafe magnitudes", () => {
    expect(renderValue("i", "integer", 1.0)).toBe("1");
    expect(renderValue("i", "integer", -0)).toBe("0");
    expect(renderValue("i", "integer", 2 ** 53 - 1)).toBe("9007199254740991");
    expect(() => renderValue("i", "integer", 1.5)).toThrow(/field "i" must be a JSON integer, got 1\.5/);
    expect(() => renderValue("i", "integer", 2 ** 53)).toThrow(/field "i" is outside the exactly representable/);
  });
  it("booleans render true/false", () => {
    expect(renderValue("b", "boolean", true)).toBe("true");
    expect(renderValue("b", "boolean", false)).toBe("false");
  });
  it("non-finite numbers are refused", () => {
    expect(() => renderValue("n", "number", Infinity)).toThrow(ArgumentError);
    expect(() => renderValue("n", "number", NaN)).toThrow(ArgumentError);
  });
});

describe("call-time contract", () => {
  const fields = { a: "string", n: "number" } as const;
  const argv = [["x"], ["--a=", { field: "a" }], [{ field: "n" }]];
  it("renders inside one argument and keeps literal text", () => {
    expect(renderArgv(argv, fields, { a: "v", n: 3 }).args).toEqual(["--a=v", "3"]);
  });
  it.each([
    [{ a: "v", n: 1, extra: 1 }, /field "extra" is not declared/],
    [{ a: "v" }, /field "n" is required/],
    [{ a: 1, n: 1 }, /field "a" must be a JSON string, got 1/],
    [{ a: "v", n: "1" }, /field "n" must be a JSON number, got "1"/],
    [{ a: null, n: 1 }, /field "a" must be a JSON string, got null/],
    [{ a: ["v"], n: 1 }, /field "a" must be a JSON string/],
    [{ a: "a\0b", n: 1 }, /field "a" contains a NUL byte/],
    [{ a: "\ud800", n: 1 }, /field "a" contains an unpaired UTF-16 surrogate/],
  ])("refuses %j", (args, why) => {
    expect(() => renderArgv(argv, fields, args)).toThrow(why);
  });
  it("a literal NUL in the template is refused by position", () => {
    expect(() => renderArgv([["x"], ["a\0"]], {}, {})).toThrow(/argument 1 of the template contains a NUL byte/);
  });
  it("refusals are tool errors carrying the reason, and nothing runs", async () => {
    const out = await run([[{ field: "a" }]], { a: "string" }, { a: "x\0y" });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/^t: field "a" contains a NUL byte/);
    expect(out.value).toMatchObject({ exitCode: null, stdout: "", timedOut: false });
    expect((out.value as { stderr: string }).stderr).toMatch(/field "a"/);
  });
  it("wrong JSON scalar type at call time is a tool error naming the field", async () => {
    const out = await run([[{ field: "b" }]], { b: "boolean" }, { b: "true" });
    expect(out.isError).toBe(true);
    expect(out.text).toContain('field "b" must be a JSON boolean, got "true"');
  });
});

// Each value must arrive as exactly one argv item, byte for byte, whatever it contains.
const CORPUS: string[] = [
  "; rm -rf /", "a | cat /etc/passwd", "a & b", "a && b", "a || b", "> /tmp/x", "< /etc/passwd", "2>&1",
  "$(id)", "`id`", "$HOME", "${HOME}", "$((1+1))", "~", "~root", "*", "?", "[a-z]*", "{a,b}", "**/*",
  "'", '"', `'"'"'`, "\\", "\\n", "a\nb", "line1\r\nline2", "\r", "\t", "a\tb", " ", "  lead and trail  ",
  "-rf", "--help", "-", "--", "--output=/etc/passwd", "-e require('fs')", "%s%s%n", "#comment", "!!", "!$",
  "é", "日本語", "😀", "𝕏𝔸", "\u202eevil\u202c", "مرحبا", "שלום", "\u200b", "\ufeff", "e\u0301", "",
  "x".repeat(100_000), "{", "}", "{{a}}", "{a}", "=", "a=b", "\u0007\u001b[31m", "\u007f",
];

describe("injection corpus: one value, one argument", () => {
  it.each(CORPUS.map((v, i) => [i, v]))("corpus #%i as a whole argument", async (_i, value) => {
    const out = await run([[{ field: "v" }]], { v: "string" }, { v: value });
    expect(out.isError).toBeFalsy();
    expect(argvOf(out)).toEqual([value]);
  });
  it("the whole corpus at once, each embedded in a larger argument", async () => {
    const fields = Object.fromEntries(CORPUS.map((_, i) => [`f${i}`, "string" as const]));
    const templates = CORPUS.map((_, i) => [`--k${i}=`, { field: `f${i}` }, "!"]);
    const args = Object.fromEntries(CORPUS.map((v, i) => [`f${i}`, v]));
    const out = await run(templates, fields, args);
    expect(argvOf(out)).toEqual(CORPUS.map((v, i) => `--k${i}=${v}!`));
  });
  it("numbers, integers and booleans arrive as their normalized text", async () => {
    const out = await run(
      [[{ field: "n" }], [{ field: "i" }], [{ field: "b" }], ["-0=", { field: "z" }]],
      { n: "number", i: "integer", b: "boolean", z: "number" },
      { n: 1e2, i: 1.0, b: false, z: -0 },
    );
    expect(argvOf(out)).toEqual(["100", "1", "false", "-0=0"]);
  });
  it.each(["a\0b", "\0", "x".repeat(10) + "\0"])("NUL is refused, not truncated: %j", async (value) => {
    const out = await run([[{ field: "v" }]], { v: "string" }, { v: value });
    expect(out.isError).toBe(true);
    expect(out.text).toContain('field "v" contains a NUL byte');
  });
  it("a value past the kernel's per-argument limit is a clean tool error, not a crash", async () => {
    const out = await run([[{ field: "v" }]], { v: "string" }, { v: "x".repeat(200_000) });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/cannot start .*limit \(E2BIG\)/);
  });
  it("an unpaired surrogate is refused rather than silently replaced", async () => {
    const out = await run([[{ field: "v" }]], { v: "string" }, { v: "a\udc00b" });
    expect(out.isError).toBe(true);
  });
});
