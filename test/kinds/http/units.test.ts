// Unit checks for the pieces the end-to-end corpora lean on: secret spellings and config checks.
import { describe, expect, it } from "vitest";
import { makeRedactor, secretForms, REDACTED } from "../../../templates/kinds/http/redact.js";
import { encodePathValue, formEncode } from "../../../templates/kinds/http/encode.js";
import { createHttpHandler } from "../../../templates/kinds/http/index.js";
import { lit, toolConfig } from "./upstream.js";

describe("redaction", () => {
  const secret = "pa ss/wörd+1";
  const red = makeRedactor([secret]);

  it("covers the spellings an upstream is likely to use", () => {
    const forms = secretForms(secret);
    for (const f of [secret, encodeURIComponent(secret), "pa+ss%2Fw%C3%B6rd%2B1", "pa ss/w\\u00f6rd+1", Buffer.from(secret).toString("base64")]) {
      expect(forms).toContain(f);
    }
  });

  it("finds a secret inside a larger base64 value at every byte alignment", () => {
    for (const prefix of ["", "a", "ab", "abc", "user:"]) {
      for (const suffix of ["", "x", "xy"]) {
        const enc = Buffer.from(prefix + secret + suffix).toString("base64");
        const out = red.text(`Basic ${enc}`);
        expect(out).toContain(REDACTED);
        expect(out.replace(REDACTED, "").length).toBeLessThan(`Basic ${enc}`.length - 8);
      }
    }
  });

  it("decodes mixed escapes to find the secret, replacing the whole escaped span", () => {
    const mixed = "pa\\u0020ss\\/w\\u00F6rd+1";
    expect(red.text(`{"k":"${mixed}","n":1}`)).toBe(`{"k":"${REDACTED}","n":1}`);
    expect(red.text("x=pa%20ss/w%c3%b6rd%2b1&y=2")).toBe(`x=${REDACTED}&y=2`);
  });

  it("leaves unrelated text alone and an empty secret list is the identity", () => {
    expect(red.text('{"a":"pa ss","b":"\\u00f6"}')).toBe('{"a":"pa ss","b":"\\u00f6"}');
    expect(makeRedactor([]).text(secret)).toBe(secret);
  });

  it("redacts keys and values of parsed JSON", () => {
    expect(red.json({ [secret]: [secret, 1, { a: `x${secret}` }] })).toEqual({ [REDACTED]: [REDACTED, 1, { a: `x${REDACTED}` }] });
  });
});

describe("encoders", () => {
  it("form encoding equals URLSearchParams for every BMP sample and lone surrogates", () => {
    for (let c = 0; c < 0x3000; c += 7) {
      const s = `a${String.fromCharCode(c)}b`;
      expect(formEncode(s)).toBe(new URLSearchParams([["", s]]).toString().slice(1));
    }
    expect(formEncode("\udc00")).toBe(new URLSearchParams([["", "\udc00"]]).toString().slice(1));
  });

  it("path values keep only unreserved characters", () => {
    for (let c = 0x20; c < 0x7f; c++) expect(encodePathValue(String.fromCharCode(c))).toMatch(/^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})$/);
  });
});

describe("config checks at creation", () => {
  const bad: [string, Parameters<typeof toolConfig>[0]][] = [
    ["an origin with a path", { origin: "https://api.example.com/v1" }],
    ["a non-http origin", { origin: "ftp://api.example.com" }],
    ["a basePath with a trailing slash", { basePath: "/v1/" }],
    ["a path literal with a slash", { path: [[lit("a/b")]] }],
    ["a dot-segment literal", { path: [[lit("%2E%2e")]] }],
    ["a path literal that is not percent-encoded", { path: [[lit("a b")]] }],
    ["an empty segment before the last", { path: [[], [lit("x")]] }],
    ["an undeclared secret", { headers: [{ name: "X", value: [{ secret: "NOPE" }] }] }],
    ["a Host header", { headers: [{ name: "Host", value: [lit("x")] }] }],
    ["a header name with a space", { headers: [{ name: "X Y", value: [lit("x")] }] }],
    ["a control character in a header literal", { headers: [{ name: "X", value: [lit("a\r\nb")] }] }],
    ["a GET body", { body: { kind: "json", template: { json: 1 } } }],
    ["a select without its compiled form", { output: { select: "a", hasSchema: false } }],
    ["a zero timeout", { timeoutMs: 0 }],
  ];
  it.each(bad)("refuses %s", (_name, over) => {
    expect(() => createHttpHandler(toolConfig(over), { env: {} })).toThrow(/invalid http tool config/);
  });
});
