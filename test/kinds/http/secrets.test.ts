// The secret-leak corpus: an upstream that echoes the secret every way it can. Nothing of it may
// reach the outcome (text or value) or anything written to stdout/stderr.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { checkHttpStartup, compileSelect, createHttpHandler, type HttpToolConfig } from "../../../templates/kinds/http/index.js";
import { StartupError } from "../../../templates/runtime/types.js";
import { ctx, input, lit, secret, startUpstream, toolConfig, type Upstream } from "./upstream.js";

const TOKEN = 's3cr3t/Tok+en "é"&=?<x>';
const KEY = "abcd1234efgh5678";
const b64 = (s: string) => Buffer.from(s).toString("base64");
const b64url = (s: string) => Buffer.from(s).toString("base64url");
const uEscaped = (s: string) => [...s].map((c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join("");
const html = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Independent of the redactor: the spellings a leak would take. */
const pctAll = (s: string) => [...Buffer.from(s)].map((b) => "%" + b.toString(16).padStart(2, "0")).join("");
const pyQuote = (s: string) => encodeURIComponent(s).replace(/%2F/g, "/").replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
function spellings(s: string): string[] {
  const json = JSON.stringify(s).slice(1, -1);
  return [s, encodeURIComponent(s), new URLSearchParams([["", s]]).toString().slice(1), json, json.replace(/\//g, "\\/"), uEscaped(s), pctAll(s), pyQuote(s), b64(s), b64url(s), html(s)];
}
function expectNoLeak(text: string) {
  for (const s of [TOKEN, KEY]) for (const f of spellings(s)) expect(text).not.toContain(f);
  for (let i = 0; i + 8 <= KEY.length; i++) expect(text).not.toContain(KEY.slice(i, i + 8));
  expect(text).not.toContain(b64("user:" + KEY).slice(4, 20)); // the secret's share of a Basic credential
}

let up: Upstream;
let written = "";
beforeAll(async () => void (up = await startUpstream()));
afterAll(() => up.close());
beforeEach(() => {
  up.seen.length = 0;
  written = "";
  const grab = (chunk: unknown) => ((written += String(chunk)), true);
  vi.spyOn(process.stderr, "write").mockImplementation(grab);
  vi.spyOn(process.stdout, "write").mockImplementation(grab);
  for (const m of ["log", "error", "warn", "info", "debug"] as const) vi.spyOn(console, m).mockImplementation((...a) => void grab(a.join(" ")));
});
afterEach(() => {
  vi.restoreAllMocks();
  expectNoLeak(written);
});

const env = () => ({ T_BASE_URL: up.origin, API_TOKEN: TOKEN, API_KEY: KEY });
const base: Partial<HttpToolConfig> = {
  secrets: [
    { name: "TOKEN", env: "API_TOKEN", required: true },
    { name: "KEY", env: "API_KEY", required: true },
  ],
  headers: [
    { name: "Authorization", value: [lit("Bearer "), secret("TOKEN")] },
    { name: "X-Key", value: [secret("KEY")] },
  ],
  query: [{ name: "api_key", value: [secret("KEY")] }, { name: "q", value: [input("q")] }],
};

function everyEcho(): string {
  const parts = [TOKEN, KEY].flatMap((s) => [
    s,
    encodeURIComponent(s),
    new URLSearchParams([["k", s]]).toString(),
    b64(s),
    b64url(s),
    b64("user:" + s),
    html(s),
  ]);
  return parts.join(" | ");
}

const routes: Record<string, (res: import("node:http").ServerResponse) => void> = {
  "JSON body with escaped and \\u-escaped copies": (res) => {
    res.setHeader("content-type", "application/json");
    res.end(`{"token":${JSON.stringify(TOKEN)},"u":"${uEscaped(TOKEN)}","${uEscaped(KEY)}":1,"all":${JSON.stringify(everyEcho())},"auth":"Basic ${b64("user:" + KEY)}"}`);
  },
  "mixed escapes: \\u, \\/, %xx for every byte, Python-style quoting": (res) => {
    res.setHeader("content-type", "application/json");
    const half = (x: string) => uEscaped(x.slice(0, 5)) + JSON.stringify(x.slice(5)).slice(1, -1).replace(/\//g, "\\/");
    res.end(JSON.stringify({ a: pctAll(TOKEN), b: pyQuote(TOKEN), c: pctAll(KEY) }).replace(/}$/, `,"d":"${half(TOKEN)}","e":"${half(KEY)}"}`));
  },
  "JSON nested in a JSON string": (res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ inner: JSON.stringify({ inner: JSON.stringify({ token: TOKEN }) }) }));
  },
  "echoed headers and cookies": (res) => {
    res.setHeader("x-echo", KEY);
    res.setHeader("set-cookie", `t=${encodeURIComponent(TOKEN)}`);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ ok: true, echo: everyEcho() }));
  },
  "an HTML error page": (res) => {
    res.writeHead(500, { "content-type": "text/html" });
    res.end(`<html><body><h1>Error</h1><p>token=${html(TOKEN)} key=${KEY}</p><pre>${everyEcho()}</pre></body></html>`);
  },
  "a JSON 401": (res) => {
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "bad token", token: TOKEN, key: b64(KEY) }));
  },
  "a non-JSON body": (res) => res.end(`plain ${TOKEN} ${KEY}`),
  "a status line and content type carrying the secret": (res) => {
    res.writeHead(418, `Teapot ${KEY}`, { "content-type": `text/x-${KEY}; t=${encodeURIComponent(TOKEN)}` });
    res.end("");
  },
  "a non-JSON 200 whose content type carries the secret": (res) => {
    res.writeHead(200, { "content-type": `text/x-${KEY}` });
    res.end("<not json>");
  },
  "a redirect carrying the secret": (res) => {
    res.writeHead(302, { location: `http://evil.example/?k=${encodeURIComponent(TOKEN)}&${KEY}` });
    res.end(KEY);
  },
};

describe("no secret leaks", () => {
  it.each(Object.keys(routes))("from %s, JSON output", async (name) => {
    up.route = (_req, res) => routes[name]!(res);
    const h = createHttpHandler(toolConfig(base), { env: env() });
    const out = await h({ q: "x" }, ctx());
    expectNoLeak(JSON.stringify(out));
  });

  it.each(Object.keys(routes))("from %s, raw output", async (name) => {
    up.route = (_req, res) => routes[name]!(res);
    const h = createHttpHandler(toolConfig({ ...base, output: { raw: true, hasSchema: false } }), { env: env() });
    expectNoLeak(JSON.stringify(await h({}, ctx())));
  });

  it("redacts before select runs, so an expression cannot probe the secret", async () => {
    up.route = (_req, res) => routes["JSON body with escaped and \\u-escaped copies"]!(res);
    const select = compileSelect("{t: token, u: u, keys: keys(@), has: contains(token, 's3c')}");
    const h = createHttpHandler(toolConfig({ ...base, output: { select: "x", hasSchema: true } }), { env: env(), select });
    const out = await h({}, ctx());
    expect(out.isError).toBeFalsy();
    expect(out.value).toMatchObject({ t: "[REDACTED]", u: "[REDACTED]", has: false });
    expect((out.value as { keys: string[] }).keys).toContain("[REDACTED]");
    expectNoLeak(JSON.stringify(out));
  });

  it("still sends the secrets where the spec puts them", async () => {
    const h = createHttpHandler(toolConfig(base), { env: env() });
    await h({ q: "x" }, ctx());
    const seen = up.seen[0]!;
    expect(seen.headers.authorization).toBe(`Bearer ${Buffer.from(TOKEN).toString("latin1")}`);
    expect(seen.headers["x-key"]).toBe(KEY);
    expect(seen.target).toBe(`/?api_key=${KEY}&q=x`);
    up.seen.length = 0; // the recorded request holds the secret legitimately; not part of the output
  });

  it("connection errors and timeouts carry no secret either", async () => {
    up.route = () => {}; // never answers
    const h = createHttpHandler(toolConfig({ ...base, timeoutMs: 100 }), { env: env() });
    const out = await h({ q: KEY }, ctx());
    expect(out.text).toMatch(/timed out after 100 ms/);
    expectNoLeak(JSON.stringify(out));
  });
});

describe("startup", () => {
  const cfg = toolConfig({ ...base, tool: "get_thing" });
  it("a missing required secret stops the server with a clear message", () => {
    const run = () => checkHttpStartup([cfg], { API_TOKEN: TOKEN, API_KEY: "" });
    expect(run).toThrow(StartupError);
    expect(run).toThrow("tool get_thing: secret KEY needs the environment variable API_KEY, which is not set");
  });

  it("an optional secret may be absent; its templates are left out", async () => {
    const opt = toolConfig({ secrets: [{ name: "K", env: "OPT_K", required: false }], query: [{ name: "k", value: [secret("K")] }] });
    expect(() => checkHttpStartup([opt], { T_BASE_URL: up.origin })).not.toThrow();
    await createHttpHandler(opt, { env: { T_BASE_URL: up.origin } })({}, ctx());
    expect(up.seen[0]!.target).toBe("/");
  });

  it.each(["ftp://127.0.0.1/", "http://u:p@127.0.0.1/", "http://127.0.0.1/?a=1", "http://127.0.0.1/#x", "/relative", "http://127.0.0.1/?"])(
    "refuses the override %s",
    (url) => {
      expect(() => checkHttpStartup([cfg], { ...env(), T_BASE_URL: url })).toThrow(/T_BASE_URL must be an absolute http\(s\) URL/);
      try {
        checkHttpStartup([cfg], { ...env(), T_BASE_URL: url });
      } catch (e) {
        expect(String(e)).not.toContain(url); // never echoed: it may hold credentials
      }
    },
  );

  it("a handler whose environment is incomplete answers with a tool error, never a request", async () => {
    const out = await createHttpHandler(cfg, { env: { T_BASE_URL: up.origin } })({}, ctx());
    expect(out).toMatchObject({ isError: true });
    expect(out.text).toMatch(/not configured: secret TOKEN needs the environment variable API_TOKEN/);
    expect(up.seen).toHaveLength(0);
  });
});
