// Secret spellings beyond the plain encodings: split by HTML tags, HTML numeric entities, base64
// wrapped in CRLF lines (MIME style), UTF-16 bodies, unpadded base64url. Checked on the redactor
// and end to end through an error page, the place upstreams echo secrets most.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRedactor, REDACTED } from "../../../templates/kinds/http/redact.js";
import { createHttpHandler } from "../../../templates/kinds/http/index.js";
import { ctx, lit, secret, startUpstream, toolConfig, type Upstream } from "./upstream.js";

const KEY = "sEcr3T/Key+9xQ7vLmW2pZ";
const red = makeRedactor([KEY]);
const numeric = (s: string, hex: boolean) => [...s].map((c) => (hex ? `&#x${c.codePointAt(0)!.toString(16)};` : `&#${c.codePointAt(0)};`)).join("");
const mime = (b64: string, width: number) => b64.match(new RegExp(`.{1,${width}}`, "g"))!.join("\r\n");

/** Nothing of the key may survive: no run of 6 of its characters, in any of the spellings checked. */
function expectGone(out: string, ...spellings: string[]) {
  expect(out).toContain(REDACTED);
  for (const s of spellings) expect(out).not.toContain(s);
  for (let i = 0; i + 6 <= KEY.length; i++) expect(out).not.toContain(KEY.slice(i, i + 6));
}

describe("redactor", () => {
  it("finds a secret split by HTML tags", () => {
    for (const split of ["sEcr3T<b></b>/Key+9xQ7vLmW2pZ", "sEc<span class='x'>r3T/Key</span>+9xQ7<!-- -->vLmW2pZ", "<i>sEcr3T</i>/<i>Key+9xQ7vLmW2pZ</i>"]) {
      const out = red.text(`<p>token: ${split}</p>`);
      expect(out, split).toContain(REDACTED);
      expect(out).not.toMatch(/sEcr3T|9xQ7vL|mW2pZ/);
    }
  });

  it("finds a secret written as numeric HTML entities, decimal or hex, whole or in part", () => {
    for (const enc of [numeric(KEY, false), numeric(KEY, true), KEY.slice(0, 5) + numeric(KEY.slice(5, 9), false) + KEY.slice(9)]) {
      expectGone(red.text(`<code>${enc}</code>`), enc);
    }
  });

  it("finds base64 of the secret wrapped in CRLF lines", () => {
    for (const prefix of ["", "user:", "Authorization: Basic x:"]) {
      const b64 = Buffer.from(prefix + KEY).toString("base64");
      for (const width of [4, 5, 8, 76]) {
        const wrapped = mime(b64, width);
        const out = red.text(`-----\r\n${wrapped}\r\n-----`);
        expect(out, `${prefix} ${width}`).toContain(REDACTED);
        expect(out.replace(/\r\n/g, "")).not.toContain(Buffer.from(KEY).toString("base64").slice(4, 16));
      }
    }
  });

  it("finds the secret in a UTF-16 body read as UTF-8 (little and big endian)", () => {
    const le = Buffer.from(`{"key":"${KEY}"}`, "utf16le");
    const be = Buffer.from(le).swap16();
    for (const bytes of [le, be]) {
      const out = red.text(new TextDecoder().decode(bytes));
      expect(out).toContain(REDACTED);
      expect(out.replace(/\0/g, "")).not.toMatch(/sEcr3T|9xQ7vL|mW2pZ/);
    }
  });

  it("leaves no character of unpadded base64url behind", () => {
    for (const s of [KEY, KEY + "a", KEY + "ab"]) {
      const enc = Buffer.from(s).toString("base64url");
      const out = red.text(`id=${enc}`);
      expect(out, enc).toBe(s === KEY ? `id=${REDACTED}` : out);
      expect(out).not.toContain(enc.slice(0, 8));
    }
    expect(red.text(`id=${Buffer.from(KEY).toString("base64url")}&n=1`)).toBe(`id=${REDACTED}&n=1`);
    expect(red.text(`id=${Buffer.from(KEY).toString("base64").replace(/=+$/, "")}`)).toBe(`id=${REDACTED}`);
  });

  it("leaves ordinary markup, entities and line breaks alone", () => {
    const page = "<p>a &amp; b &#169; c</p>\r\nline two\0";
    expect(red.text(page)).toBe(page);
  });
});

describe("error pages end to end", () => {
  let up: Upstream;
  beforeAll(async () => void (up = await startUpstream()));
  afterAll(() => up.close());

  it("an HTML error page echoing the key split by tags and entities says nothing of it", async () => {
    const handler = createHttpHandler(
      toolConfig({ path: [[lit("p")]], secrets: [{ name: "KEY", env: "API_KEY", required: true }], headers: [{ name: "X-Key", value: [secret("KEY")] }] }),
      { env: { T_BASE_URL: up.origin, API_KEY: KEY } },
    );
    const pages = [
      `<html><body><h1>Forbidden</h1><p>bad key sEcr3T<b></b>/Key+9xQ7vLmW2pZ</p></body></html>`,
      `<html><body>bad key ${numeric(KEY, true)}</body></html>`,
    ];
    for (const page of pages) {
      up.route = (_q, res) => res.writeHead(403, { "content-type": "text/html" }).end(page);
      const out = await handler({}, ctx());
      expect(out.isError).toBe(true);
      expect(out.text).toMatch(/^the upstream answered HTTP 403/);
      expect(out.text).toContain(REDACTED);
      expect(out.text).not.toMatch(/sEcr3T|9xQ7vL|mW2pZ|&#x/);
    }
  });
});
