// A generated server against an HTTPS upstream with a private CA: trusted through Node's own
// NODE_EXTRA_CA_CERTS, refused (as a readable tool error) without it; and reached through the
// operator's proxy (HTTPS_PROXY) by a CONNECT tunnel. The certificate is a test fixture for
// 127.0.0.1 and upstream.test, valid until 2126.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { call, spawnRaw } from "../runtime/raw.js";
import { startProxy, type TestProxy } from "../kinds/http/proxy-server.js";

const OPEN_METEO = resolve("out/open-meteo/server.mjs");
const CERT = resolve("test/fixtures/tls/cert.pem");
let server: Server;
let origin: string;
let seen = 0;
let proxy: TestProxy;

beforeAll(async () => {
  server = createServer({ key: readFileSync(resolve("test/fixtures/tls/key.pem")), cert: readFileSync(CERT) }, (_req, res) => {
    seen++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ current: { temperature_2m: 3.5, wind_speed_10m: 12.25, weather_code: 61 } }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy = await startProxy();
});
afterAll(() => {
  void proxy.close();
  server.closeAllConnections();
  server.close();
});

async function weather(env: Record<string, string>): Promise<Record<string, any>> {
  const s = spawnRaw(OPEN_METEO, { OPEN_METEO_BASE_URL: origin, HTTPS_PROXY: "", https_proxy: "", ...env });
  s.send(call(1, "get_current_weather", { latitude: 39.92, longitude: 32.85 }));
  const reply = await s.next();
  s.proc.stdin!.end();
  await s.exited;
  return reply.result as Record<string, any>;
}

describe("https upstream", () => {
  it("is reached when its CA is trusted through NODE_EXTRA_CA_CERTS", async () => {
    const result = await weather({ NODE_EXTRA_CA_CERTS: CERT });
    expect(result.structuredContent).toEqual({ temperatureC: 3.5, windKmh: 12.25, weatherCode: 61 });
    expect(seen).toBe(1);
  });

  it("an untrusted certificate is a tool error naming the reason, and nothing is answered", async () => {
    const result = await weather({ NODE_EXTRA_CA_CERTS: "" });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(new RegExp(`^the TLS certificate of ${origin} was not accepted \\((SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\\)$`));
    expect(seen).toBe(1); // the handshake failed: no request reached the handler
  });
});

describe("https upstream through the operator's proxy", () => {
  it("is reached by a CONNECT tunnel carrying the proxy's credentials; TLS stays end to end", async () => {
    // upstream.test resolves nowhere: only the proxy (which maps every name to 127.0.0.1) reaches it.
    const port = new URL(origin).port;
    proxy.requireAuth = `Basic ${Buffer.from("ci:s3cret").toString("base64")}`;
    const before = seen;
    const result = await weather({ OPEN_METEO_BASE_URL: `https://upstream.test:${port}`, HTTPS_PROXY: `http://ci:s3cret@127.0.0.1:${proxy.port}`, NODE_EXTRA_CA_CERTS: CERT });
    expect(result.structuredContent).toEqual({ temperatureC: 3.5, windKmh: 12.25, weatherCode: 61 });
    expect(proxy.seen).toEqual([{ method: "CONNECT", target: `upstream.test:${port}`, auth: proxy.requireAuth }]);
    expect(seen).toBe(before + 1);
  });

  it("a refused tunnel is a tool error naming the proxy, not its credentials", async () => {
    proxy.requireAuth = "Basic other";
    const result = await weather({ OPEN_METEO_BASE_URL: "https://upstream.test:443", HTTPS_PROXY: `http://ci:s3cret@127.0.0.1:${proxy.port}`, NODE_EXTRA_CA_CERTS: CERT });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(`the proxy http://127.0.0.1:${proxy.port} refused the tunnel to upstream.test:443 (HTTP 407: it wants credentials)`);
  });
});
