// Streamable HTTP serving: requests per second at 1, 16 and 64 connections for a cheap tool call, against
// a bare node:http JSON echo (the ceiling) and the official TypeScript SDK's stateless Streamable HTTP
// server, measured in the same run in interleaved rounds; the cost of OAuth token verification with a
// cached key; p50/p99 latencies. Every server is a child process; the load comes from this process.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { median, NODE, REPO, tempDir, type BenchRow } from "./util.js";

const CONCURRENCY = [1, 16, 64];
const ROUNDS = 4;
const WINDOW_MS = 1500;

interface Target {
  url: string;
  body: string;
  headers: Record<string, string>;
  proc: ChildProcess;
}

async function start(args: string[], env: Record<string, string> = {}): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(NODE, args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    proc.once("exit", (code) => reject(new Error(`bench server exited with ${code}: ${err}`)));
  });
  proc.stderr!.resume();
  return { url, proc };
}

/** A 2025-11-25 tools/call (the era all three servers speak), with the headers it needs. */
function legacyCall(tool: string, args: Record<string, unknown>, token?: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } });
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  if (token) headers.authorization = `Bearer ${token}`;
  return { body, headers };
}

/** Closed-loop load for a window: `connections` clients each sending the next request when the last is answered. */
async function load(t: Target, connections: number, ms: number): Promise<{ rps: number; latencies: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const u = new URL(t.url);
  const latencies: number[] = [];
  const end = performance.now() + ms;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const start = performance.now();
      const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: "POST", headers: t.headers, agent }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode} from ${t.url}`));
          latencies.push(performance.now() - start);
          resolve();
        });
      });
      req.on("error", reject);
      req.end(t.body);
    });
  const began = performance.now();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < end) await one();
  }));
  agent.destroy();
  return { rps: latencies.length / ((performance.now() - began) / 1000), latencies };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const f = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));

export async function benchServing(): Promise<BenchRow[]> {
  const dir = tempDir("kervan-bench-serving-");
  // OAuth with a local JWKS file: the key is loaded once, every request verifies a signature.
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwks = join(dir, "jwks.json");
  writeFileSync(jwks, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "bench", alg: "ES256" }] }));
  const token = await new SignJWT({ scope: "" }).setProtectedHeader({ alg: "ES256", kid: "bench", typ: "at+jwt" }).setIssuer("https://idp.bench/").setAudience("https://mcp.bench/mcp").setSubject("bench").setExpirationTime("2h").sign(privateKey);

  const validator = join(REPO, "out/validator/server.mjs");
  const cheap = { output: "1", schema: { type: "integer" } };
  const subjects: Record<string, Target> = {};
  const add = async (name: string, args: string[], call: { body: string; headers: Record<string, string> }) => {
    const s = await start(args);
    subjects[name] = { ...s, ...call };
  };
  try {
    // Same request bytes as Kervan's; the echo answers them back (a reply of about the same size).
    await add("ceiling", [join(REPO, "test/bench/fixtures/echo-http-server.mjs")], legacyCall("validate_json", cheap));
    await add("sdk", [join(REPO, "test/bench/fixtures/sdk-http-server.mjs")], legacyCall("echo", { text: "1" }));
    await add("kervan", [validator, "--http", "0", "--log-level", "warn"], legacyCall("validate_json", cheap));
    await add("kervan+oauth", [validator, "--http", "0", "--log-level", "warn", "--auth", "oauth", "--oauth-issuer", "https://idp.bench/", "--oauth-resource", "https://mcp.bench/mcp", "--oauth-jwks-file", jwks], legacyCall("validate_json", cheap, token));
    // The same server without auth, sent the very bytes the OAuth one gets (Authorization header included,
    // which it ignores): the pair then differs by the token's verification alone, not by request size.
    subjects["kervan+header"] = { ...subjects.kervan!, ...legacyCall("validate_json", cheap, token) };
    for (const t of Object.values(subjects)) await load(t, 4, 300); // warm-up: JIT, key import, sockets

    // Each comparison is its own pair of interleaved rounds (order alternating), so a server still busy
    // after its window (the SDK closes a server per request) never slows the other side of another pair.
    const results: Record<string, Record<number, { rps: number[]; lat: number[] }>> = {};
    const pair = async (x: string, y: string, c: number, key: (name: string) => string) => {
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of round % 2 ? [y, x] : [x, y]) {
          const r = await load(subjects[name], c, WINDOW_MS);
          const slot = ((results[key(name)] ??= {})[c] ??= { rps: [], lat: [] });
          slot.rps.push(r.rps);
          slot.lat.push(...r.latencies);
        }
      }
    };
    for (const c of CONCURRENCY) {
      await pair("kervan", "ceiling", c, (n) => (n === "kervan" ? "kervan/ceiling" : n));
      await pair("kervan", "sdk", c, (n) => (n === "kervan" ? "kervan/sdk" : n));
    }
    await pair("kervan+header", "kervan+oauth", 64, (n) => n);
    const rps = (name: string, c: number) => median(results[name][c].rps);
    const lat = (name: string, c: number) => `p50 ${f(pct(results[name][c].lat, 50))} ms, p99 ${f(pct(results[name][c].lat, 99))} ms`;
    const rows: BenchRow[] = [];
    for (const c of CONCURRENCY) {
      const k = rps("kervan/ceiling", c);
      const ks = rps("kervan/sdk", c);
      const ceil = rps("ceiling", c);
      const sdk = rps("sdk", c);
      // Ratios of time per request (inverse rates), so lower is better like every other row.
      rows.push({
        name: `HTTP tools/call, ${c} connection(s): time per request vs bare node:http echo`,
        ratio: ceil / k,
        detail: `Kervan ${f(k)} req/s (${lat("kervan/ceiling", c)}) against the node:http JSON echo ${f(ceil)} req/s (${lat("ceiling", c)})${c === 64 ? "; target ≤ 1.25× (≥ 0.8× the ceiling's rate)" : ""}`,
      });
      rows.push({
        name: `HTTP tools/call, ${c} connection(s): time per request vs the official SDK`,
        ratio: sdk / ks,
        detail: `Kervan ${f(ks)} req/s (${lat("kervan/sdk", c)}) against @modelcontextprotocol/sdk stateless Streamable HTTP ${f(sdk)} req/s (${lat("sdk", c)})${c === 64 ? "; target ≤ 0.34× (≥ 3× the SDK's rate)" : ""}`,
      });
    }
    const auth = rps("kervan+oauth", 64);
    const plain = rps("kervan+header", 64);
    rows.push({
      name: "HTTP tools/call, 64 connections: OAuth token verification (cached key) vs no auth",
      ratio: plain / auth,
      detail: `with an ES256 JWT on every request (signature checked once, then remembered until expiry) ${f(auth)} req/s (${lat("kervan+oauth", 64)}) against ${f(plain)} req/s (${lat("kervan+header", 64)}) without auth, same request bytes; target ≤ 1.1×`,
    });
    return rows;
  } finally {
    for (const t of Object.values(subjects)) t.proc.kill("SIGTERM");
  }
}
