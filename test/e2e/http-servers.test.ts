// Generated HTTP-tool servers (out/open-meteo, out/github-issues) as real processes, against a real
// upstream on 127.0.0.1 that records what it actually received.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { startUpstream, type Upstream } from "../kinds/http/upstream.js";
import { spawnRaw, call, type RawServer } from "../runtime/raw.js";

const OPEN_METEO = resolve("out/open-meteo/server.mjs");
const GITHUB = resolve("out/github-issues/server.mjs");
type Result = { content: { type: string; text: string }[]; structuredContent?: unknown; isError?: boolean; [k: string]: unknown };

let up: Upstream;
beforeAll(async () => (up = await startUpstream()));
afterAll(() => up.close());
afterEach(() => (up.seen.length = 0));

async function rpc(server: RawServer, line: string): Promise<Record<string, any>> {
  server.send(line);
  return server.next();
}

describe("open-meteo: the seed's quickstart", () => {
  let server: RawServer;
  beforeAll(() => {
    server = spawnRaw(OPEN_METEO, { OPEN_METEO_BASE_URL: up.origin });
  });
  afterAll(() => server.proc.kill());

  it("reproduces the seed's tools/call result", async () => {
    up.route = (_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ latitude: 39.92, longitude: 32.85, current: { time: "2026-11-30T12:00", temperature_2m: 21.1, wind_speed_10m: 5.9, weather_code: 2 } }));
    };
    // The seed's request, byte for byte.
    const seedRequest = {
      id: 4,
      jsonrpc: "2.0",
      method: "tools/call",
      params: {
        _meta: { "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
        arguments: { latitude: 39.92, longitude: 32.85 },
        name: "get_current_weather",
      },
    };
    const reply = await rpc(server, JSON.stringify(seedRequest));
    expect(reply).toEqual({
      id: 4,
      jsonrpc: "2.0",
      result: {
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "open-meteo", version: "0.1.0" } },
        content: [{ text: '{"temperatureC":21.1,"windKmh":5.9,"weatherCode":2}', type: "text" }],
        resultType: "complete",
        structuredContent: { temperatureC: 21.1, weatherCode: 2, windKmh: 5.9 },
      },
    });
    expect(up.seen).toHaveLength(1);
    const target = new URL(up.seen[0].target, up.origin);
    expect(target.pathname).toBe("/v1/forecast");
    expect(Object.fromEntries(target.searchParams)).toEqual({ latitude: "39.92", longitude: "32.85", current: "temperature_2m,wind_speed_10m,weather_code" });
    expect(up.seen[0].headers["user-agent"]).toBe("open-meteo/0.1.0 kervan"); // the server names itself to the API
  });

  it("sends an optional input only when given", async () => {
    up.route = (_req, res) => res.end(JSON.stringify({ current: { temperature_2m: 70.1, wind_speed_10m: 3.7, weather_code: 0 } }));
    const reply = await rpc(server, call(5, "get_current_weather", { latitude: 1, longitude: 2, units: "imperial" }));
    expect(reply.result.isError).toBeUndefined();
    const params = new URL(up.seen[0].target, up.origin).searchParams;
    expect(params.get("temperature_unit")).toBe("fahrenheit");
    expect(params.get("wind_speed_unit")).toBe("mph");
    expect(params.has("units")).toBe(false);
  });

  it("answers invalid arguments as a tool error and sends no request", async () => {
    for (const args of [{ latitude: 91, longitude: 0 }, { latitude: 0 }, { latitude: 0, longitude: 0, units: "kelvin" }, { latitude: "0", longitude: 0 }]) {
      const reply = await rpc(server, call(6, "get_current_weather", args));
      expect(reply.result.isError).toBe(true);
      expect(reply.result.content[0].text).toMatch(/Invalid arguments/);
    }
    expect(up.seen).toHaveLength(0);
  });

  it("says so when the API answers with something the output schema does not allow", async () => {
    up.route = (_req, res) => res.end(JSON.stringify({ current: { temperature_2m: "warm", wind_speed_10m: 1 } }));
    const reply = await rpc(server, call(7, "get_current_weather", { latitude: 1, longitude: 2 }));
    expect(reply.result.isError).toBe(true);
    expect(reply.result.content[0].text).toMatch(/temperatureC/);
    expect(reply.result.structuredContent).toBeUndefined();
  });

  it("turns an upstream error status into a readable tool error", async () => {
    up.route = (_req, res) => {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: true, reason: "Latitude must be in range of -90 to 90°." }));
    };
    const reply = await rpc(server, call(8, "get_current_weather", { latitude: 1, longitude: 2 }));
    expect(reply.result.isError).toBe(true);
    expect(reply.result.content[0].text).toMatch(/400/);
    expect(reply.result.content[0].text).toMatch(/Latitude must be in range/);
  });
});

const TOKEN = "ghp_Secr3t+/=Token&\"quote\"";
const forms = (s: string) => [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1), Buffer.from(s).toString("base64"), Buffer.from(s).toString("base64url"), new URLSearchParams({ v: s }).toString().slice(2)];

describe("github-issues: secrets, path encoding, JSON bodies", () => {
  let server: RawServer;
  beforeAll(() => {
    server = spawnRaw(GITHUB, { GITHUB_API_URL: up.origin, GITHUB_TOKEN: TOKEN });
  });
  afterAll(() => server.proc.kill());

  it("sends the bearer token to the pinned origin only, with each path value in its own segment", async () => {
    up.route = (_req, res) => res.end(JSON.stringify({ number: 7, title: "t", state: "open", labels: [], user: { login: "u" }, body: null }));
    const reply = await rpc(server, call(10, "get_issue", { owner: "ü b%2F", repo: "a/b?c#d", issue_number: 7 }));
    expect(reply.result.isError).toBeUndefined();
    const seen = up.seen[0];
    expect(seen.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen.target).toBe("/repos/%C3%BC%20b%252F/a%2Fb%3Fc%23d/issues/7");
  });

  it("refuses a path value that is a dot segment, encoded or not, and sends nothing", async () => {
    // A value with a dot segment inside ("../../admin") is refused too: some servers decode %2F.
    for (const owner of ["..", ".", "%2e%2e", "%2E.", "../../admin"]) {
      const reply = await rpc(server, call(11, "get_issue", { owner, repo: "r", issue_number: 1 }));
      expect(reply.result.isError, owner).toBe(true);
    }
    expect(up.seen).toHaveLength(0);
  });

  it("builds the JSON body structurally: quotes, newlines, unicode and arrays arrive intact", async () => {
    up.route = (_req, res) => res.end(JSON.stringify({ number: 12, html_url: "https://github.com/o/r/issues/12" }));
    const title = 'He said "hi"\n}\u2028 ünïcødé 𝄞';
    const reply = await rpc(server, call(12, "create_issue", { owner: "o", repo: "r", title, labels: ["bug", "a,b"] }));
    expect(reply.result.structuredContent).toEqual({ number: 12, url: "https://github.com/o/r/issues/12" });
    const seen = up.seen[0];
    expect(seen.method).toBe("POST");
    expect(JSON.parse(seen.body.toString("utf8"))).toEqual({ title, labels: ["bug", "a,b"] });
  });

  it("spreads an array query input in the declared style and leaves absent ones out", async () => {
    up.route = (_req, res) => res.end("[]");
    await rpc(server, call(13, "list_issues", { owner: "o", repo: "r", labels: ["bug", "help wanted"] }));
    expect(up.seen[0].target).toBe("/repos/o/r/issues?labels=bug,help+wanted");
  });

  it("never lets the token out: not in content, structuredContent, error text or stderr", async () => {
    const echoed = forms(TOKEN);
    const routes: ((res: import("node:http").ServerResponse) => void)[] = [
      (res) => res.end(JSON.stringify({ number: 1, title: echoed.join(" | "), state: "open", labels: [], user: { login: TOKEN }, body: `auth was Bearer ${TOKEN}` })),
      (res) => {
        res.setHeader("x-echo", Buffer.from(TOKEN).toString("base64"));
        res.end(JSON.stringify({ number: 1, title: "t", state: "open", labels: [], user: { login: "u" }, body: JSON.stringify({ token: TOKEN }) }));
      },
      (res) => {
        res.statusCode = 401;
        res.setHeader("content-type", "text/html");
        res.end(`<html><body>Bad credentials: ${echoed.join("<br>")}</body></html>`);
      },
      (res) => {
        res.statusCode = 200;
        res.end(`not json ${TOKEN}`);
      },
    ];
    for (const route of routes) {
      up.route = (_req, res) => route(res);
      const reply = await rpc(server, call(14, "get_issue", { owner: "o", repo: "r", issue_number: 1 }));
      const text = JSON.stringify(reply);
      for (const form of echoed) expect(text).not.toContain(form);
    }
    for (const form of echoed) expect(server.stderr()).not.toContain(form);
  });

  it("stops at startup, naming the variable, when the token is missing", () => {
    const env: Record<string, string | undefined> = { ...process.env, GITHUB_API_URL: up.origin };
    delete env.GITHUB_TOKEN;
    const r = spawnSync(process.execPath, [GITHUB], { env, input: "", encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/GITHUB_TOKEN/);
    expect(r.stdout).toBe("");
  });
});
