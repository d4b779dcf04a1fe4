// Issue 26's HTTP rows: the Streamable HTTP server's CPU per tools/call (read from /proc, all threads)
// against a bare node:http JSON echo given the same request bytes, in both eras; and an http tool call
// in this process against a bare node:http keep-alive request of the same URL.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { compileSelect, createHttpHandler, type HttpToolConfig } from "../../templates/kinds/http/index.js";
import { META_2026, NODE, REPO, interleave, median, ms, type Row } from "./util.js";
import { join } from "node:path";

const TICK_MS = 1000 / 100; // USER_HZ on Linux

/** user + system CPU of a process (every thread), in ms, from /proc/PID/stat. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
}

async function start(args: string[]): Promise<{ url: URL; proc: ChildProcess }> {
  const proc = spawn(NODE, args, { stdio: ["ignore", "ignore", "pipe"], cwd: REPO, env: { PATH: process.env.PATH ?? "" } });
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        proc.stderr!.off("data", onData);
        resolve(m[1]!);
      }
    };
    proc.stderr!.on("data", onData);
    proc.once("exit", (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  proc.stderr!.resume(); // request log lines (the default level, info) are read and dropped
  return { url: new URL(url), proc };
}

type Era = "2025-11-25" | "2026-07-28";

function call(era: Era): { body: string; headers: Record<string, string> } {
  const params = { name: "validate_json", arguments: { output: "1", schema: { type: "integer" } } };
  const modern = era === "2026-07-28";
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: modern ? { ...params, _meta: META_2026 } : params });
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": era };
  if (modern) Object.assign(headers, { "mcp-method": "tools/call", "mcp-name": "validate_json" });
  return { body, headers };
}

/** `n` requests over `connections` keep-alive sockets; returns the server's CPU per request in ms. */
async function cpuPerRequest(proc: ChildProcess, url: URL, req: { body: string; headers: Record<string, string> }, n: number, connections = 4): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const r = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: req.headers, agent }, (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode} from ${url.href}`))));
      });
      r.on("error", reject);
      r.end(req.body);
    });
  let left = n;
  const before = cpuMs(proc.pid!);
  await Promise.all(Array.from({ length: connections }, async () => {
    while (left-- > 0) await one();
  }));
  const used = cpuMs(proc.pid!) - before;
  agent.destroy();
  return used / n;
}

export async function benchFloorServing(validator: string, requests = 4000, rounds = 5): Promise<Row[]> {
  const kervan = await start([validator, "--http", "0"]);
  const echo = await start([join(REPO, "test/bench/fixtures/echo-http-server.mjs")]);
  try {
    const eras: Era[] = ["2025-11-25", "2026-07-28"];
    const subjects = eras.flatMap((era) => [kervan, echo].map((s) => () => cpuPerRequest(s.proc, s.url, call(era), requests)));
    const m = (await interleave(subjects, rounds, 1)).map(median) as number[];
    const section = "Issue 26: Streamable HTTP server CPU per tools/call (default log level) vs a bare node:http JSON echo";
    return eras.map((era, i) => ({
      section,
      name: `Streamable HTTP server CPU per request vs bare node:http JSON echo, ${era} frames`,
      ratio: m[2 * i]! / m[2 * i + 1]!,
      target: { op: "≤", value: 1.15, note: "issue 26" },
      subject: ms(m[2 * i]!),
      baseline: ms(m[2 * i + 1]!),
    }));
  } finally {
    kervan.proc.kill("SIGTERM");
    echo.proc.kill("SIGTERM");
  }
}

const BODY = JSON.stringify({ latitude: 39.92, longitude: 32.85, timezone: "GMT", current: { time: "2026-07-28T12:00", interval: 900, temperature_2m: 21.1, wind_speed_10m: 5.9, weather_code: 2 } });
const TOKEN = "bench-token-0123456789abcdef";

export async function benchFloorHttpCall(rounds = 2000): Promise<Row[]> {
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
    query: ["latitude", "longitude"].map((n) => ({ name: n, value: [{ input: n }] })),
    headers: [{ name: "Authorization", value: [{ lit: "Bearer " }, { secret: "TOKEN" }] }],
    secrets: [{ name: "TOKEN", env: "BENCH_TOKEN", required: true }],
    timeoutMs: 10_000,
    maxResponseBytes: 1 << 20,
    redirects: "none",
    output: { select: "x", hasSchema: true },
  };
  const handler = createHttpHandler(cfg, { env: { BENCH_BASE_URL: origin, BENCH_TOKEN: TOKEN }, select: compileSelect("{temperatureC: current.temperature_2m, weatherCode: current.weather_code}") });
  const ctx = { signal: new AbortController().signal, era: "2026-07-28" as const };
  const viaTool = async () => {
    const out = await handler({ latitude: 39.92, longitude: 32.85 }, ctx);
    if (out.isError) throw new Error(`http tool call failed: ${out.text}`);
  };
  const agent = new Agent({ keepAlive: true });
  const u = new URL(`${origin}/v1/forecast?latitude=39.92&longitude=32.85`);
  const viaRequest = () =>
    new Promise<void>((resolve, reject) => {
      const r = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { accept: "application/json", authorization: `Bearer ${TOKEN}` }, agent }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          JSON.parse(text);
          resolve();
        });
      });
      r.on("error", reject);
      r.end();
    });
  try {
    const [t, b] = (await interleave([viaTool, viaRequest], rounds, 500)).map(median) as [number, number];
    return [{ section: "Issue 26: http tool call (select) vs a bare node:http keep-alive request + JSON.parse", name: "HTTP tool call vs bare node:http keep-alive request", ratio: t / b, target: { op: "≤", value: 1.15, note: "issue 26" }, subject: ms(t), baseline: ms(b) }];
  } finally {
    agent.destroy();
    server.closeAllConnections();
    server.close();
  }
}
