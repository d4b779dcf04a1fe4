// OAuth resource server against a real local JWKS endpoint: every kind of bad token is refused with
// the right challenge, per-tool scopes hide and refuse tools, and the caller's token never travels on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "node:http";
import { Client, InsufficientScopeError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { startUpstream, type Upstream } from "../kinds/http/upstream.js";
import { generateFixture } from "./generate.js";
import { ISSUER, RESOURCE, startIdp, type Idp } from "./idp.js";
import { bearer, httpRequest, rpc } from "./wire.js";

let idp: Idp;
let server: HttpServer;
let up: Upstream;
const API_KEY = "upstream-api-key-0123456789";
const META_URL = "https://mcp.test/.well-known/oauth-protected-resource/mcp";

beforeAll(async () => {
  idp = await startIdp();
  up = await startUpstream();
  server = await startHttpServer(generateFixture("serving"), ["--oauth-jwks-url", idp.jwksUrl, "--oauth-jwks-cooldown-ms", "0"], {
    SERVING_UPSTREAM_URL: up.origin,
    SERVING_API_KEY: API_KEY,
  });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await up?.close();
  await idp?.close();
});

const list = (token: string, era: "2026-07-28" | "2025-11-25" = "2026-07-28") => rpc(server.url, era, 1, "tools/list", {}, bearer(token));
const echo = (token: string) => rpc(server.url, "2026-07-28", 2, "tools/call", { name: "echo", arguments: { text: "hi" } }, bearer(token));

function expectInvalidToken(answer: { status: number; headers: Record<string, unknown> }, reason: RegExp): void {
  expect(answer.status).toBe(401);
  const challenge = String(answer.headers["www-authenticate"]);
  expect(challenge).toContain(`resource_metadata="${META_URL}"`);
  expect(challenge).toContain('error="invalid_token"');
  expect(challenge).toMatch(reason);
}

describe("protected resource metadata and challenges", () => {
  it("serves RFC 9728 metadata at both well-known paths", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const answer = await httpRequest(new URL(path, server.url).href);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        resource: RESOURCE,
        authorization_servers: [ISSUER],
        scopes_supported: ["admin", "jobs", "read"],
        bearer_methods_supported: ["header"],
        resource_name: "serving-fixture",
      });
    }
  });

  it("answers a request without a token 401 naming the metadata and the scopes", async () => {
    const answer = await rpc(server.url, "2026-07-28", 1, "tools/list");
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe(`Bearer resource_metadata="${META_URL}", scope="admin jobs read"`);
  });

  it("refuses a token in the query string, even a valid one", async () => {
    const token = await idp.token();
    const answer = await httpRequest(`${server.url}?access_token=${token}`, { method: "POST", headers: { "content-type": "application/json", ...bearer(token) }, body: "{}" });
    expect(answer.status).toBe(400);
    expect(answer.headers["www-authenticate"]).toContain('error="invalid_request"');
  });
});

describe("token validation", () => {
  it("accepts a valid token in both eras", async () => {
    const token = await idp.token();
    for (const era of ["2026-07-28", "2025-11-25"] as const) {
      const answer = await list(token, era);
      expect(answer.status).toBe(200);
      expect(answer.json.result.tools.map((t: { name: string }) => t.name)).toEqual(["echo", "slow"]);
    }
    const called = await echo(token);
    expect(called.json.result.content[0].text).toContain("--- stdout ---\nhi");
  });

  it("refuses expired, not-yet-valid, wrong-issuer and wrong-audience tokens", async () => {
    expectInvalidToken(await list(await idp.token({}, { expSec: -120 })), /expired/);
    expectInvalidToken(await list(await idp.token({}, { nbfSec: 600 })), /nbf/);
    expectInvalidToken(await list(await idp.token({ iss: "https://other-idp.test/" })), /iss/);
    expectInvalidToken(await list(await idp.token({ aud: "https://other-server.test/mcp" })), /aud/);
  });

  it("judges every request's token on a kept-alive connection, not only the connection's first", async () => {
    // The server remembers a connection's last admitted header; a different header is checked afresh.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    agent.on("free", (socket) => sockets.add(socket));
    const on = (headers: Record<string, string>) => rpc(server.url, "2026-07-28", 1, "tools/list", {}, headers, agent);
    try {
      const good = await idp.token();
      expect((await on(bearer(good))).status).toBe(200);
      expectInvalidToken(await on(bearer(await idp.token({ aud: "https://other-server.test/mcp" }))), /aud/);
      expectInvalidToken(await on(bearer(await idp.token({}, { expSec: -120 }))), /expired/);
      expect((await on({})).status).toBe(401);
      expect((await on(bearer(good))).status).toBe(200);
      expectInvalidToken(await on(bearer(`${good}x`)), /signature|invalid/);
      expect((await on(bearer(good))).status).toBe(200);
      expect(sockets.size).toBe(1); // all of it on one connection
    } finally {
      agent.destroy();
    }
  });

  it("accepts expiry within the clock skew", async () => {
    expect((await list(await idp.token({}, { expSec: -5 }))).status).toBe(200);
  });

  it("refuses alg none and HS256 signed with the public key", async () => {
    expectInvalidToken(await list(idp.unsigned()), /token/);
    expectInvalidToken(await list(await idp.hsWithPublicKey()), /algorithm not allowed/);
  });

  it("refetches the JWKS for an unknown key id, then refuses; a rotated-in key is then accepted", async () => {
    await list(await idp.token()); // keys cached
    const before = idp.fetches;
    expectInvalidToken(await list(await idp.token({}, { kid: "k2" })), /unknown key/);
    expect(idp.fetches).toBe(before + 1);
    idp.published.add("k2");
    expect((await list(await idp.token({}, { kid: "k2" }))).status).toBe(200);
    expect(idp.fetches).toBe(before + 2);
    // A known key is served from the cache.
    await list(await idp.token({}, { kid: "k2" }));
    expect(idp.fetches).toBe(before + 2);
  });
});

describe("per-tool scopes", () => {
  it("hides tools the token may not call and refuses them the same way as tools that do not exist", async () => {
    const token = await idp.token({ scope: "read" });
    const listed = await list(token);
    expect(listed.json.result.tools.map((t: { name: string }) => t.name)).toEqual(["echo"]);
    const hidden = await rpc(server.url, "2026-07-28", 3, "tools/call", { name: "admin_report", arguments: {} }, bearer(token));
    const missing = await rpc(server.url, "2026-07-28", 3, "tools/call", { name: "no_such_tool", arguments: {} }, bearer(token));
    expect(hidden.status).toBe(403);
    expect(hidden.headers["www-authenticate"]).toBe(`Bearer resource_metadata="${META_URL}", error="insufficient_scope", scope="admin jobs read"`);
    expect({ status: missing.status, headers: missing.headers["www-authenticate"], body: missing.body }).toEqual({ status: hidden.status, headers: hidden.headers["www-authenticate"], body: hidden.body });
  });

  it("the upstream of an http tool never sees the caller's token", async () => {
    const token = await idp.token({ scope: "admin read" });
    const answer = await rpc(server.url, "2026-07-28", 4, "tools/call", { name: "admin_report", arguments: {} }, bearer(token));
    expect(answer.json.result.isError).toBeUndefined();
    expect(up.seen).toHaveLength(1);
    const seen = up.seen[0];
    expect(seen.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const everything = JSON.stringify(seen) + seen.body.toString("latin1");
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.split(".")[1]); // not even the claims part
  });
});

describe.each(["2026-07-28", "2025-11-25"] as const)("the official client with a token, %s", (era) => {
  const connect = async (token: string) => {
    const negotiation = era === "2026-07-28" ? { mode: { pin: "2026-07-28" } } : { mode: "legacy" as const };
    const client = new Client({ name: "kervan-test", version: "0.0.0" }, { versionNegotiation: negotiation });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: { token: async () => token } }));
    return client;
  };

  it("lists and calls what its scopes allow, and gets insufficient_scope for the rest", async () => {
    const client = await connect(await idp.token({ scope: "read" }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(era);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
      const ok = await client.callTool({ name: "echo", arguments: { text: "through the client" } });
      expect((ok.content as { text: string }[])[0].text).toContain("through the client");
      const refused = await client.callTool({ name: "slow", arguments: { ms: 1, pidFile: "/dev/null" } }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(InsufficientScopeError);
      expect((refused as InsufficientScopeError).requiredScope).toBe("admin jobs read");
    } finally {
      await client.close();
    }
  });
});
