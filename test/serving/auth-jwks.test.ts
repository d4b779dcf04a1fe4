// The JWKS and token checks a review broke, against generated servers and real local JWKS endpoints:
// a key removed from the JWKS stops verifying once the cache is older than its bound; a huge JWKS is
// refused unread past the cap; an http:// JWKS URL off loopback stops the start; the RFC 9068 `typ`
// header is checked (configurable); an `iat` in the future beyond the skew is refused.
import { randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { generateFixture } from "./generate.js";
import { startIdp, type Idp } from "./idp.js";
import { bearer, rpc } from "./wire.js";

const FIXTURE_ENV = { SERVING_API_KEY: "k", SERVING_UPSTREAM_URL: "http://127.0.0.1:9" };
let idp: Idp;
const servers: HttpServer[] = [];
const idps: Idp[] = [];
const start = async (args: string[]) => {
  const server = await startHttpServer(generateFixture("serving"), args, FIXTURE_ENV);
  servers.push(server);
  return server;
};

beforeAll(async () => {
  idp = await startIdp();
  idps.push(idp);
}, 60_000);
afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const i of idps) await i.close();
});

const list = (server: HttpServer, token: string) => rpc(server.url, "2026-07-28", 1, "tools/list", {}, bearer(token));
const reason = (answer: { headers: Record<string, unknown> }) => String(answer.headers["www-authenticate"]);

describe("JWKS", () => {
  it("stops verifying new tokens of a removed key once the cached JWKS is older than its bound", async () => {
    const own = await startIdp(["r1", "r2"]);
    idps.push(own);
    const server = await start(["--oauth-jwks-url", own.jwksUrl, "--oauth-jwks-cooldown-ms", "0", "--oauth-jwks-max-age-ms", "1000"]);
    expect((await list(server, await own.token({ jti: randomUUID() }, { kid: "r1" }))).status).toBe(200);
    own.published = new Set(["r2"]);
    await new Promise((r) => setTimeout(r, 1300));
    const after = await list(server, await own.token({ jti: randomUUID() }, { kid: "r1" }));
    expect(after.status).toBe(401);
    expect(reason(after)).toContain("unknown key");
    expect((await list(server, await own.token({ jti: randomUUID() }, { kid: "r2" }))).status).toBe(200);
  });

  it("refuses a JWKS response over the size cap without reading it all", async () => {
    const huge = await startIdp(["h1"]);
    idps.push(huge);
    huge.padding = 256 * 1024 * 1024;
    const server = await start(["--oauth-jwks-url", huge.jwksUrl, "--oauth-jwks-cooldown-ms", "0"]);
    const answer = await list(server, await huge.token({}, { kid: "h1" }));
    expect(answer.status).toBe(401);
    expect(reason(answer)).toContain("keys unavailable");
    // The server stopped reading: far less than the document was written, and its memory stayed small.
    await new Promise((r) => setTimeout(r, 200));
    expect(huge.padded).toBeLessThan(64 * 1024 * 1024);
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.proc.pid}/status`, "utf8"))![1]);
    expect(peakKb).toBeLessThan(300 * 1024);
  });

  it("refuses an http:// JWKS URL off loopback at start, naming it", () => {
    const run = spawnSync(process.execPath, [generateFixture("serving"), "--http", "0", "--oauth-jwks-url", "http://idp.example.test/jwks.json"], { encoding: "utf8", env: { ...process.env, ...FIXTURE_ENV }, timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("the JWKS URL must be https (plain http only on loopback)");
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("token header and claims", () => {
  it("checks typ per RFC 9068 (at+jwt and application/at+jwt), or not at all with --oauth-token-type any", async () => {
    const server = await start(["--oauth-jwks-url", idp.jwksUrl, "--oauth-jwks-cooldown-ms", "0"]);
    expect((await list(server, await idp.token({}, { typ: "application/at+jwt" }))).status).toBe(200);
    for (const typ of ["JWT", null]) {
      const answer = await list(server, await idp.token({}, { typ }));
      expect(answer.status).toBe(401);
      expect(reason(answer)).toContain("token type");
    }
    const any = await start(["--oauth-jwks-url", idp.jwksUrl, "--oauth-token-type", "any"]);
    expect((await list(any, await idp.token({}, { typ: "JWT" }))).status).toBe(200);
  });

  it("refuses an iat in the future beyond the clock skew, and accepts one within it", async () => {
    const server = await start(["--oauth-jwks-url", idp.jwksUrl, "--oauth-jwks-cooldown-ms", "0"]);
    const future = await list(server, await idp.token({}, { iatSec: 600 }));
    expect(future.status).toBe(401);
    expect(reason(future)).toContain("iat");
    expect((await list(server, await idp.token({}, { iatSec: 10 }))).status).toBe(200);
  });
});
