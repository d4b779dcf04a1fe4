// The operator's proxy (HTTP_PROXY, HTTPS_PROXY, NO_PROXY and their lowercase spellings): requests
// for http targets go through a real local proxy, loopback stays direct, and the proxy's own
// failures are named as the proxy's. The https path (CONNECT) is in test/e2e/https-upstream.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkHttpStartup, createHttpHandler } from "../../../templates/kinds/http/index.js";
import { proxyFor, readProxyEnv } from "../../../templates/kinds/http/proxy.js";
import { startProxy, type TestProxy } from "./proxy-server.js";
import { closedPort, ctx, lit, useUpstream, toolConfig } from "./upstream.js";

const up = useUpstream();
let proxy: TestProxy;
beforeAll(async () => (proxy = await startProxy()));
afterAll(() => proxy.close());
beforeEach(() => {
  proxy.seen.length = 0;
  proxy.requireAuth = undefined;
});

// upstream.test is no real host: only the proxy (which maps every name to 127.0.0.1) can reach it.
const viaProxy = (env: Record<string, string>) =>
  createHttpHandler(toolConfig({ path: [[lit("p")]], query: [{ name: "q", value: [lit("1")] }] }), { env: { T_BASE_URL: `http://upstream.test:${up.port}`, ...env } });

describe("http targets through HTTP_PROXY", () => {
  it("go through the proxy as absolute-form requests; the upstream sees its own Host", async () => {
    const out = await viaProxy({ HTTP_PROXY: proxy.url })({}, ctx());
    expect(out.isError).toBeUndefined();
    expect(proxy.seen).toEqual([{ method: "GET", target: `http://upstream.test:${up.port}/p?q=1` }]);
    expect(up.seen[0]!.target).toBe("/p?q=1");
    expect(up.seen[0]!.headers.host).toBe(`upstream.test:${up.port}`);
  });

  it("send the proxy URL's credentials as Proxy-Authorization, decoded", async () => {
    proxy.requireAuth = `Basic ${Buffer.from("ci:p@ss word").toString("base64")}`;
    const out = await viaProxy({ http_proxy: `http://ci:p%40ss%20word@127.0.0.1:${proxy.port}` })({}, ctx());
    expect(out.isError).toBeUndefined();
    expect(proxy.seen[0]!.auth).toBe(proxy.requireAuth);
  });

  it("a proxy that wants credentials is a tool error that says so", async () => {
    proxy.requireAuth = "Basic nope";
    expect(await viaProxy({ HTTP_PROXY: proxy.url })({}, ctx())).toEqual({ isError: true, text: `the proxy ${proxy.url} answered HTTP 407: it wants credentials` });
    expect(up.seen).toHaveLength(0);
  });

  it("a proxy that is down is named, with no credentials in the text", async () => {
    const port = await closedPort();
    const out = await viaProxy({ HTTP_PROXY: `http://ci:secret@127.0.0.1:${port}` })({}, ctx());
    expect(out).toEqual({ isError: true, text: `could not reach the proxy http://127.0.0.1:${port} (ECONNREFUSED)` });
  });

  it("loopback upstreams never go through the proxy", async () => {
    const h = createHttpHandler(toolConfig({ path: [[lit("p")]] }), { env: { T_BASE_URL: up.origin, HTTP_PROXY: proxy.url } });
    expect((await h({}, ctx())).isError).toBeUndefined();
    expect(proxy.seen).toHaveLength(0);
    expect(up.seen).toHaveLength(1);
  });

  it("a bad proxy setting stops the server at startup, naming the variable but not its value", () => {
    for (const value of ["socks5://ci:secret@proxy:1080", "http://ci:secret@proxy:3128/path", "http://["]) {
      const start = () => checkHttpStartup([toolConfig(), toolConfig({ tool: "u" })], { HTTPS_PROXY: value });
      expect(start).toThrow(/^http tools are not configured: HTTPS_PROXY must be an http:\/\/ proxy URL \(host, port, optional credentials; nothing else\)$/);
      try {
        start();
      } catch (e) {
        expect(String(e)).not.toContain("secret");
      }
    }
  });
});

describe("which requests use the proxy", () => {
  const p = (env: Record<string, string>) => readProxyEnv(env).proxy;
  const via = (env: Record<string, string>, url: string) => proxyFor(p(env), new URL(url))?.href;
  const P = "http://proxy.corp:3128/";

  it("by scheme: HTTPS_PROXY for https targets, HTTP_PROXY for http ones", () => {
    expect(via({ HTTPS_PROXY: P }, "https://api.example.com/x")).toBe(P);
    expect(via({ HTTPS_PROXY: P }, "http://api.example.com/x")).toBeUndefined();
    expect(via({ HTTP_PROXY: P }, "http://api.example.com/x")).toBe(P);
    expect(via({}, "https://api.example.com/x")).toBeUndefined();
  });

  it("the lowercase spelling wins; a bare host:port means an http:// proxy", () => {
    expect(via({ https_proxy: "proxy.lower:8080", HTTPS_PROXY: P }, "https://a.example/")).toBe("http://proxy.lower:8080/");
  });

  it("NO_PROXY: *, hosts with their subdomains, leading dots and stars, ports, IPv6", () => {
    const url = "https://api.example.com/x";
    expect(via({ HTTPS_PROXY: P, NO_PROXY: "*" }, url)).toBeUndefined();
    for (const entry of ["example.com", ".example.com", "*.example.com", "api.example.com", "API.EXAMPLE.COM", "other.org, example.com", "example.com:443"]) {
      expect(via({ HTTPS_PROXY: P, NO_PROXY: entry }, url), entry).toBeUndefined();
    }
    for (const entry of ["ample.com", "api.example.com:8443", "example.org", "x.api.example.com"]) {
      expect(via({ HTTPS_PROXY: P, no_proxy: entry }, url), entry).toBe(P);
    }
    expect(via({ HTTPS_PROXY: P, NO_PROXY: "[2001:db8::1]" }, "https://[2001:db8::1]/")).toBeUndefined();
  });

  it("loopback is always direct", () => {
    for (const url of ["http://127.0.0.1:8080/", "http://127.1.2.3/", "http://localhost:3000/", "http://app.localhost/", "http://[::1]:80/"]) {
      expect(via({ HTTP_PROXY: P }, url), url).toBeUndefined();
    }
  });
});
