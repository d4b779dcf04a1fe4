// An http tool call against a bare fetch of the same local URL, in one process, interleaved
// (alternating which goes first) so drift, warm-up and connection reuse hit both sides alike.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { interleave, median } from "./util.js";
import { compileSelect, createHttpHandler, type HttpToolConfig } from "../../templates/kinds/http/index.js";

export interface BenchRow {
  name: string;
  ratio: number;
  detail: string;
}

// Shaped like the open-meteo answer the reference spec selects from.
const BODY = JSON.stringify({
  latitude: 39.92,
  longitude: 32.85,
  generationtime_ms: 0.03,
  utc_offset_seconds: 0,
  timezone: "GMT",
  current_units: { time: "iso8601", interval: "seconds", temperature_2m: "°C", wind_speed_10m: "km/h", weather_code: "wmo code" },
  current: { time: "2026-07-28T12:00", interval: 900, temperature_2m: 21.1, wind_speed_10m: 5.9, weather_code: 2 },
});
const TOKEN = "bench-token-0123456789abcdef";
const SELECT = "{temperatureC: current.temperature_2m, windKmh: current.wind_speed_10m, weatherCode: current.weather_code}";

async function compare(name: string, origin: string, cfg: HttpToolConfig, select: string | undefined, rounds: number, withTimeout = false): Promise<BenchRow> {
  const handler = createHttpHandler(cfg, { env: { BENCH_BASE_URL: origin, BENCH_TOKEN: TOKEN }, select: select ? compileSelect(select) : undefined });
  const ctx = { signal: new AbortController().signal, era: "2026-07-28" as const };
  const args = { latitude: 39.92, longitude: 32.85, units: "metric" };
  const viaTool = async () => {
    const out = await handler(args, ctx);
    if (out.isError) throw new Error(`bench call failed: ${out.text}`);
  };
  // The least a caller must do for the same answer: same URL and headers, read, parse.
  const url = `${origin}/v1/forecast?latitude=39.92&longitude=32.85&units=metric`;
  const headers = { accept: "application/json", authorization: `Bearer ${TOKEN}` };
  const viaFetch = async () => {
    // withTimeout: what any caller pays for a deadline (a fresh AbortSignal per request).
    const ac = withTimeout ? new AbortController() : undefined;
    const timer = ac && setTimeout(() => ac.abort(), cfg.timeoutMs);
    const res = await fetch(url, { headers, redirect: "manual", signal: ac?.signal });
    const text = await res.text();
    clearTimeout(timer);
    if (!cfg.output.raw) JSON.parse(text);
  };
  // Interleaved, alternating which goes first, after untimed warm-up runs (JIT, connection pool).
  const [tool, base] = await interleave([viaTool, viaFetch], rounds, 500);
  const mt = median(tool);
  const mb = median(base);
  return {
    name,
    ratio: mt / mb,
    detail: `median ${(mt * 1000).toFixed(0)} µs vs ${(mb * 1000).toFixed(0)} µs over ${rounds} interleaved rounds (target ≤ 1.15×)`,
  };
}

export async function benchHttp(rounds = 2000): Promise<BenchRow[]> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(BODY));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cfg: HttpToolConfig = {
    tool: "get_current_weather",
    method: "GET",
    origin: "https://api.open-meteo.com",
    originEnv: "BENCH_BASE_URL",
    basePath: "",
    path: [[{ lit: "v1" }], [{ lit: "forecast" }]],
    query: ["latitude", "longitude", "units"].map((n) => ({ name: n, value: [{ input: n }] })),
    headers: [{ name: "Authorization", value: [{ lit: "Bearer " }, { secret: "TOKEN" }] }],
    secrets: [{ name: "TOKEN", env: "BENCH_TOKEN", required: true }],
    timeoutMs: 10_000,
    maxResponseBytes: 1 << 20,
    redirects: "none",
    output: { select: "x", hasSchema: true },
  };
  try {
    return [
      await compare("http call (select + redaction) vs bare fetch + JSON.parse", origin, cfg, SELECT, rounds),
      await compare("http call (raw) vs bare fetch + text", origin, { ...cfg, output: { raw: true, hasSchema: false } }, undefined, rounds),
      await compare("http call (select) vs bare fetch with a timeout signal", origin, cfg, SELECT, rounds, true),
    ];
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const row of await benchHttp()) console.log(`${row.name}: ${row.ratio.toFixed(3)}× (${row.detail})`);
}
