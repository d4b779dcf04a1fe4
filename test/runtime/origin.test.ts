// Requests from web pages: a page on another loopback port can POST with a "simple" Content-Type
// (text/plain, no CORS preflight) and trigger a tool even though it cannot read the answer. The server
// compares the whole Origin (scheme, host, port) against an allow-list that is empty by default and
// takes only application/json bodies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { modernRequest, rawPost } from "../helpers/raw-http.js";

const entry = fileURLToPath(new URL("./fixtures/server.ts", import.meta.url));
let plain: HttpServer;
let listed: HttpServer;

beforeAll(async () => {
  const bundle = await bundleEntry(entry);
  // One at a time, so a server that started is always stopped by afterAll even if the other fails.
  plain = await startHttpServer(bundle);
  listed = await startHttpServer(bundle, ["--allowed-origins", "http://localhost:5173,https://App.Example:8443"]);
});
afterAll(async () => {
  await Promise.all([plain?.stop(), listed?.stop()]);
});

const echo = modernRequest("tools/call", { name: "echo", arguments: { text: "side effect" } });

describe("Origin", () => {
  it("refuses every browser origin by default, loopback ones included", async () => {
    const own = new URL(plain.url);
    const https = `https://${own.host}`;
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:3000", https, `http://localhost:${own.port}`, "http://localhost", "null", "http://evil.example.com"]) {
      const res = await rawPost(plain.url, echo.body, { ...echo.headers, origin });
      expect([res.status, res.json?.error?.message], origin).toEqual([403, "Forbidden: Origin not allowed"]);
    }
  });

  it("accepts the server's own origin (no page can live there: the server serves none)", async () => {
    const own = new URL(plain.url).origin;
    const res = await rawPost(plain.url, echo.body, { ...echo.headers, origin: own });
    expect(res.status).toBe(200);
    // The same origin reached under another Host name is not its own origin.
    expect((await rawPost(plain.url, echo.body, { ...echo.headers, origin: own, host: "localhost:1" })).status).toBe(403);
  });

  it("accepts requests that carry no Origin (non-browser clients)", async () => {
    const res = await rawPost(plain.url, echo.body, echo.headers);
    expect(res.status).toBe(200);
    expect(res.json.result.structuredContent).toEqual({ text: "side effect" });
  });

  it("accepts exactly the listed origins: scheme, host and port must all match", async () => {
    const ok = async (origin: string) => (await rawPost(listed.url, echo.body, { ...echo.headers, origin })).status;
    expect(await ok("http://localhost:5173")).toBe(200);
    expect(await ok("https://app.example:8443")).toBe(200);
    expect(await ok("https://localhost:5173")).toBe(403);
    expect(await ok("http://localhost:5174")).toBe(403);
    expect(await ok("http://localhost")).toBe(403);
    expect(await ok("http://app.example:8443")).toBe(403);
  });

  it("refuses a malformed --allowed-origins entry at startup", async () => {
    await expect(startHttpServer(await bundleEntry(entry), ["--allowed-origins", "localhost:5173"])).rejects.toThrow(/--allowed-origins.*localhost:5173/);
  });
});

describe("Content-Type", () => {
  it("refuses a POST whose body is not declared application/json with 415", async () => {
    for (const type of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", ""]) {
      const res = await rawPost(plain.url, echo.body, { ...echo.headers, "content-type": type });
      expect([res.status, res.json?.error?.message], type).toEqual([415, "Unsupported Media Type: the body must be sent as application/json"]);
    }
  });

  it("accepts application/json with parameters and in any letter case", async () => {
    for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON"]) {
      expect((await rawPost(plain.url, echo.body, { ...echo.headers, "content-type": type })).status, type).toBe(200);
    }
  });
});
