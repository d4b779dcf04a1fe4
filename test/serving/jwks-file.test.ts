// OAuth keys from a local JWKS file (no network at run time): read once at start; a missing or broken
// file stops the start with one line naming it.
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { generateFixture } from "./generate.js";
import { startIdp, type Idp } from "./idp.js";
import { bearer, rpc } from "./wire.js";

const FIXTURE_ENV = { SERVING_API_KEY: "k", SERVING_UPSTREAM_URL: "http://127.0.0.1:9" };
let idp: Idp | undefined;
let server: HttpServer | undefined;
afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

describe("oauth with a local JWKS file", () => {
  it("verifies tokens against the file's keys and refuses a key it does not hold", async () => {
    idp = await startIdp();
    const file = join(mkdtempSync(join(tmpdir(), "kervan-jwks-")), "jwks.json");
    writeFileSync(file, JSON.stringify(idp.jwks()));
    server = await startHttpServer(generateFixture("serving"), ["--oauth-jwks-file", file], FIXTURE_ENV);
    const ok = await rpc(server.url, "2026-07-28", 1, "tools/list", {}, bearer(await idp.token({ scope: "jobs" })));
    expect(ok.status).toBe(200);
    expect(ok.json.result.tools.map((t: { name: string }) => t.name)).toEqual(["echo", "slow"]);
    const other = await rpc(server.url, "2026-07-28", 2, "tools/list", {}, bearer(await idp.token({}, { kid: "k2" })));
    expect(other.status).toBe(401);
    expect(other.headers["www-authenticate"]).toContain('error_description="token signed with an unknown key"');
    expect(idp.fetches).toBe(0); // the JWKS endpoint was never asked
  });

  it("stops the start when the file is missing or not a key set", () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-jwks-"));
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ keys: "none" }));
    for (const [file, reason] of [
      [join(dir, "missing.json"), "cannot read the JWKS file"],
      [bad, "is not a JSON Web Key Set"],
    ]) {
      const run = spawnSync(process.execPath, [generateFixture("serving"), "--http", "0", "--oauth-jwks-file", file], { encoding: "utf8", env: { ...process.env, ...FIXTURE_ENV } });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`serving-fixture: ${reason === "cannot read the JWKS file" ? `${reason} ${file}` : `the JWKS file ${file} ${reason}`}`);
      expect(run.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    }
  });
});
