// The http example's resource template: out/open-meteo serves weather://current/{latitude}/{longitude}
// read through get_current_weather. A real upstream on 127.0.0.1 records what the read sent; the raw
// wire (no SDK) shows the body comes back as the resource's text, and a bad variable sends nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { startUpstream, type Upstream } from "../kinds/http/upstream.js";
import { META, spawnRaw, type RawServer } from "../runtime/raw.js";
import { rawPost } from "../helpers/raw-http.js";
import { startHttpServer, type HttpServer } from "../helpers/client.js";

const OPEN_METEO = resolve("out/open-meteo/server.mjs");
const URI = "weather://current/39.92/32.85";
const FORECAST = { latitude: 39.92, longitude: 32.85, current: { time: "2026-11-30T12:00", temperature_2m: 21.1, wind_speed_10m: 5.9, weather_code: 2 } };

let up: Upstream;
beforeAll(async () => {
  up = await startUpstream();
  up.route = (_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(FORECAST));
  };
});
afterAll(() => up.close());
afterEach(() => (up.seen.length = 0));

/** What the read must have sent: one GET of the tool's path with the URI's variables as its query. */
function expectForecastRequest(): void {
  expect(up.seen).toHaveLength(1);
  expect(up.seen[0].method).toBe("GET");
  const target = new URL(up.seen[0].target, up.origin);
  expect(target.pathname).toBe("/v1/forecast");
  expect(Object.fromEntries(target.searchParams)).toEqual({ latitude: "39.92", longitude: "32.85", current: "temperature_2m,wind_speed_10m,weather_code" });
}

const SELECTED = JSON.stringify({ temperatureC: 21.1, windKmh: 5.9, weatherCode: 2 });

describe("open-meteo's resource template over stdio (2026-07-28)", () => {
  let server: RawServer;
  let id = 0;
  const send = async (method: string, params: Record<string, unknown> = {}): Promise<Record<string, any>> => {
    server.send(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: META } }));
    return server.next();
  };
  beforeAll(() => {
    server = spawnRaw(OPEN_METEO, { OPEN_METEO_BASE_URL: up.origin });
  });
  afterAll(() => server.proc.kill());

  it("lists the template and declares resources", async () => {
    expect((await send("server/discover")).result.capabilities).toEqual({ tools: {}, resources: {} });
    expect((await send("resources/templates/list")).result.resourceTemplates).toEqual([
      { uriTemplate: "weather://current/{latitude}/{longitude}", name: "current-weather", title: "Current weather at a place", description: "The current temperature, wind speed and WMO weather code at a latitude and longitude, as JSON.", mimeType: "application/json" },
    ]);
    expect(up.seen).toHaveLength(0);
  });

  it("reads a place: sends the tool's request and returns the selected body as JSON text", async () => {
    const reply = await send("resources/read", { uri: URI });
    expect(reply.result.contents).toEqual([{ uri: URI, mimeType: "application/json", text: SELECTED }]);
    expect(reply.result.cacheScope).toBe("private"); // a fetched read is not cached as public
    expectForecastRequest();
  });

  it("a variable outside the tool's input schema is not found and sends no request", async () => {
    for (const uri of ["weather://current/abc/32.85", "weather://current/91/0", "weather://current/1"]) {
      const reply = await send("resources/read", { uri });
      expect(reply.error).toMatchObject({ code: -32602, data: { uri } });
    }
    expect(up.seen).toHaveLength(0);
  });

  it("an upstream failure is a read error, and the server keeps serving", async () => {
    up.route = (_req, res) => {
      res.statusCode = 503;
      res.end("busy");
    };
    try {
      const reply = await send("resources/read", { uri: URI });
      expect(reply.error).toBeDefined();
      expect(reply.result).toBeUndefined();
    } finally {
      up.route = (_req, res) => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(FORECAST));
      };
    }
    up.seen.length = 0;
    expect((await send("resources/read", { uri: URI })).result.contents[0].text).toBe(SELECTED);
  });
});

describe("open-meteo's resource template over Streamable HTTP (2025-11-25)", () => {
  let http: HttpServer;
  beforeAll(async () => {
    http = await startHttpServer(OPEN_METEO, ["--host", "127.0.0.1"], { OPEN_METEO_BASE_URL: up.origin });
  });
  afterAll(() => http.stop());

  it("reads a place with the same request and body", async () => {
    const res = await rawPost(http.url, { jsonrpc: "2.0", id: 7, method: "resources/read", params: { uri: URI } }, { "mcp-protocol-version": "2025-11-25" });
    expect(res.status).toBe(200);
    const text = res.body.startsWith("event:") || res.body.includes("\ndata: ") ? res.body.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6) : res.body;
    expect(JSON.parse(text)).toMatchObject({ id: 7, result: { contents: [{ uri: URI, mimeType: "application/json", text: SELECTED }] } });
    expectForecastRequest();
  });
});
