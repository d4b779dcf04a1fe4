// Unit tests of the runtime's pure parts: error formatting (with real ajv errors), output capping,
// header decoding, argument parsing, message classification.
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { formatInputErrors, formatOutputErrors } from "../../templates/runtime/validation-format.js";
import { capText } from "../../templates/runtime/output.js";
import { decodeHeaderValue } from "../../templates/runtime/http-headers.js";
import { parseArgs } from "../../templates/runtime/cli.js";
import { classify } from "../../templates/runtime/jsonrpc.js";
import { wrapOutputSchema } from "../../templates/runtime/tools.js";

describe("argument error text", () => {
  const ajv = new Ajv2020({ allErrors: true });
  const validate = ajv.compile({
    type: "object",
    properties: { path: { type: "string", maxLength: 5 }, depth: { type: "integer", maximum: 3 } },
    required: ["path", "mode"],
    additionalProperties: false,
  });

  it("names the tool, each pointer, the keyword and the offending value", () => {
    const args = { path: "a/very/long/path", depth: 9, "we/ird~": true };
    expect(validate(args)).toBe(false);
    const text = formatInputErrors("read_file", args, validate.errors);
    expect(text).toContain('tool "read_file"');
    expect(text).toContain('- /path: must NOT have more than 5 characters (maxLength); got "a/very/long/path"');
    expect(text).toContain("- /depth: must be <= 3 (maximum); got 9");
    expect(text).toContain("- /mode: is required but missing (required)");
    expect(text).toContain("- /we~1ird~0: is not an allowed property (additionalProperties); got true");
  });

  it("clips quoted values to 200 characters", () => {
    const args = { path: "y".repeat(1000), mode: 1 };
    validate(args);
    const text = formatInputErrors("t", args, validate.errors);
    expect(text).toContain("(clipped; 1002 characters in all)");
    expect(text.length).toBeLessThan(600);
  });

  it("says when the tool's own output is at fault", () => {
    const text = formatOutputErrors("t", { n: "x" }, [{ instancePath: "/n", schemaPath: "", keyword: "type", params: { type: "integer" }, message: "must be integer" }]);
    expect(text).toMatch(/failed its own output schema/);
    expect(text).toContain('- /n: must be integer (type); got "x"');
  });
});

describe("output cap", () => {
  it("cuts with a marker naming the whole length", () => {
    expect(capText("abcdef", 10)).toBe("abcdef");
    expect(capText("abcdefghij", 4)).toBe("abcd\n[output cut at 4 of 10 characters]");
  });
  it("never splits a surrogate pair", () => {
    expect(capText("a😀b", 2).startsWith("a\n")).toBe(true);
  });
});

describe("header values", () => {
  it("decodes the base64 sentinel form strictly", () => {
    expect(decodeHeaderValue("=?base64?SGVsbG8sIOS4lueVjA==?=", "X")).toBe("Hello, 世界");
    expect(() => decodeHeaderValue("=?base64?SGVsbG8?=", "X")).toThrow(/not valid Base64/);
    expect(() => decodeHeaderValue("=?base64?SGVs!!!bG8=?=", "X")).toThrow(/not valid Base64/);
    expect(decodeHeaderValue("=?base64?SGVsbG8=", "X")).toBe("=?base64?SGVsbG8=");
    expect(() => decodeHeaderValue("caf\u00e9", "X")).toThrow(/not allowed/);
  });
});

describe("command line", () => {
  it("accepts PORT, :PORT and HOST:PORT", () => {
    expect(parseArgs(["--http", "8080"]).http).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(parseArgs(["--http=:0"]).http).toEqual({ host: "127.0.0.1", port: 0 });
    expect(parseArgs(["--http", "[::1]:9"]).http).toEqual({ host: "::1", port: 9 });
    expect(parseArgs(["--http", "9", "--host", "0.0.0.0", "--allowed-hosts", "a.example,B.example"])).toMatchObject({ http: { host: "0.0.0.0", port: 9 }, allowedHosts: ["a.example", "b.example"] });
    expect(parseArgs([]).http).toBeUndefined();
  });
  it("rejects bad input with a StartupError", () => {
    expect(() => parseArgs(["--http", "99999"])).toThrow(/invalid port/);
    expect(() => parseArgs(["--frobnicate"])).toThrow(/unknown argument/);
    expect(() => parseArgs(["--host", "x"])).toThrow(/needs --http/);
  });
});

describe("messages", () => {
  it("classifies requests, notifications and junk", () => {
    expect(classify({ jsonrpc: "2.0", id: 1, method: "m" }).kind).toBe("request");
    expect(classify({ jsonrpc: "2.0", method: "m" }).kind).toBe("notification");
    expect(classify({ jsonrpc: "2.0", id: 1, result: {} }).kind).toBe("response");
    expect(classify([1])).toMatchObject({ kind: "bad", id: undefined });
    expect(classify({ jsonrpc: "2.0", id: null, method: "m" })).toMatchObject({ kind: "bad", id: undefined });
    expect(classify({ jsonrpc: "1.0", id: 7, method: "m" })).toMatchObject({ kind: "bad", id: 7 });
  });
  it("wraps non-object output schemas for 2025 clients, keeping $defs at the root", () => {
    expect(wrapOutputSchema({ $schema: "s", type: "array", items: { $ref: "#/$defs/x" }, $defs: { x: {} } })).toEqual({
      $schema: "s",
      type: "object",
      properties: { result: { type: "array", items: { $ref: "#/$defs/x" } } },
      required: ["result"],
      $defs: { x: {} },
    });
  });
});
