// tools/list cache hints under per-tool scopes (caching.mdx: "public" may be shared by gateways,
// "private" is per authorization context): a list that scopes decide is the principal's own, whatever
// its token holds; a server without auth, or whose tools need no scopes, lists the same to everyone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { generateFixture } from "./generate.js";
import { startIdp, type Idp } from "./idp.js";
import { bearer, rpc } from "./wire.js";

const ENV = { SERVING_UPSTREAM_URL: "http://127.0.0.1:9", SERVING_API_KEY: "k" };
let idp: Idp;
let oauth: HttpServer;
let open: HttpServer;

beforeAll(async () => {
  idp = await startIdp();
  const bundle = generateFixture("serving");
  oauth = await startHttpServer(bundle, ["--oauth-jwks-url", idp.jwksUrl, "--oauth-jwks-cooldown-ms", "0"], ENV);
  open = await startHttpServer(bundle, ["--auth", "none"], ENV);
}, 60_000);
afterAll(async () => {
  await oauth?.stop();
  await open?.stop();
  await idp?.close();
});

const hints = (r: { json?: { result: Record<string, unknown> } }) => [r.json?.result.cacheScope, r.json?.result.ttlMs];

describe("tools/list cacheScope with per-tool scopes", () => {
  it("is private for a token whose scopes filter the list, and for one that sees every tool", async () => {
    const narrow = await rpc(oauth.url, "2026-07-28", 1, "tools/list", {}, bearer(await idp.token({ scope: "read" })));
    expect(narrow.json.result.tools.map((t: { name: string }) => t.name)).toEqual(["echo"]);
    expect(hints(narrow)).toEqual(["private", expect.any(Number)]);
    const wide = await rpc(oauth.url, "2026-07-28", 2, "tools/list", {}, bearer(await idp.token({ scope: "admin jobs read" })));
    expect(wide.json.result.tools.length).toBeGreaterThan(1);
    expect(hints(wide)).toEqual(["private", expect.any(Number)]);
    // What does not depend on the token stays public.
    const discover = await rpc(oauth.url, "2026-07-28", 3, "server/discover", {}, bearer(await idp.token({ scope: "read" })));
    expect(discover.json.result.cacheScope).toBe("public");
  });

  it("is public without auth, where every caller sees the same list", async () => {
    const list = await rpc(open.url, "2026-07-28", 1, "tools/list");
    expect(hints(list)).toEqual(["public", expect.any(Number)]);
  });
});
