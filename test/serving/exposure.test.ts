// Static bearer tokens, and the refusal to serve a non-loopback address with no authorization.
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { generateFixture } from "./generate.js";
import { bearer, rpc } from "./wire.js";

const TOKEN_A = "token-a-0123456789abcdef";
const TOKEN_B = "token-b-fedcba9876543210";
/** The fixture's http tool checks its secret at start. */
const FIXTURE_ENV = { SERVING_API_KEY: "k", SERVING_UPSTREAM_URL: "http://127.0.0.1:9" };
const started: HttpServer[] = [];
afterAll(async () => {
  for (const s of started) await s.stop();
});

async function start(args: string[], env: Record<string, string> = {}): Promise<HttpServer> {
  const s = await startHttpServer(generateFixture("serving"), args, { ...FIXTURE_ENV, ...env });
  started.push(s);
  return s;
}

describe("bearer tokens from the environment", () => {
  it("accepts each configured token and refuses others with a Bearer challenge", async () => {
    const s = await start(["--auth", "bearer", "--bearer-env", "TOKEN_A,TOKEN_B"], { TOKEN_A, TOKEN_B });
    for (const token of [TOKEN_A, TOKEN_B]) {
      const answer = await rpc(s.url, "2026-07-28", 1, "tools/list", {}, bearer(token));
      expect(answer.status).toBe(200);
      // A bearer token without scopes holds every scope.
      expect(answer.json.result.tools).toHaveLength(3);
    }
    for (const token of [TOKEN_A.slice(0, -1) + "0", TOKEN_A + "x", "short"]) {
      const answer = await rpc(s.url, "2026-07-28", 1, "tools/list", {}, bearer(token));
      expect(answer.status).toBe(401);
      expect(answer.headers["www-authenticate"]).toBe('Bearer realm="serving-fixture", scope="admin jobs read", error="invalid_token", error_description="token not recognised"');
    }
    const none = await rpc(s.url, "2026-07-28", 1, "tools/list");
    expect(none.status).toBe(401);
  });

  it("refuses to start when a token variable is missing or too short", () => {
    const missing = spawnSync(process.execPath, [generateFixture("serving"), "--http", "0", "--auth", "bearer", "--bearer-env", "NOPE_TOKEN"], { encoding: "utf8", env: { ...process.env, ...FIXTURE_ENV, NOPE_TOKEN: "" } });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe("serving-fixture: bearer token variable NOPE_TOKEN is not set\n");
    const short = spawnSync(process.execPath, [generateFixture("serving"), "--http", "0", "--auth", "bearer", "--bearer-env", "SHORT_TOKEN"], { encoding: "utf8", env: { ...process.env, ...FIXTURE_ENV, SHORT_TOKEN: "abc" } });
    expect(short.status).toBe(2);
    expect(short.stderr).toContain("too short");
  });
});

describe("binding beyond loopback", () => {
  it("refuses to serve 0.0.0.0 without authorization", () => {
    const run = spawnSync(process.execPath, [generateFixture("serving"), "--http", "0", "--host", "0.0.0.0", "--auth", "none"], { encoding: "utf8", env: { ...process.env, ...FIXTURE_ENV } });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^serving-fixture: refusing to serve 0\.0\.0\.0 without authorization.*--insecure-no-auth\n$/);
  });

  it("serves it with --insecure-no-auth and says so on start", async () => {
    const s = await start(["--host", "0.0.0.0", "--auth", "none", "--insecure-no-auth"]);
    expect(s.stderr()).toContain("WARNING: serving 0.0.0.0 with no authorization (--insecure-no-auth)");
    const answer = await rpc(s.url.replace("0.0.0.0", "127.0.0.1"), "2026-07-28", 1, "tools/list");
    expect(answer.status).toBe(200);
  });

  it("serves it with authorization and no warning", async () => {
    const s = await start(["--host", "0.0.0.0", "--auth", "bearer", "--bearer-env", "TOKEN_A"], { TOKEN_A });
    expect(s.stderr()).not.toContain("WARNING");
  });
});

describe("kervan serve passes the serving flags on", () => {
  it("serves a spec with bearer auth from the command line", async () => {
    const { spawn } = await import("node:child_process");
    const proc = spawn(process.execPath, ["bin/kervan.mjs", "serve", "test/fixtures/serving/serving.yaml", "--http", "0", "--auth", "bearer", "--bearer-env", "TOKEN_A", "--log-format", "json"], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, ...FIXTURE_ENV, TOKEN_A },
    });
    try {
      let err = "";
      const url = await new Promise<string>((resolve, reject) => {
        proc.stderr!.on("data", (c: Buffer) => {
          err += c.toString();
          const m = /listening on (http:\/\/[^\s"]+)/.exec(err);
          if (m) resolve(m[1]);
        });
        proc.once("exit", (code) => reject(new Error(`kervan serve exited with ${code}: ${err}`)));
      });
      expect((await rpc(url, "2026-07-28", 1, "tools/list")).status).toBe(401);
      expect((await rpc(url, "2026-07-28", 2, "tools/list", {}, bearer(TOKEN_A))).status).toBe(200);
    } finally {
      proc.kill("SIGTERM");
    }
  });
});
