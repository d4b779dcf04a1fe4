// npm run soak -- --minutes N [--concurrency C] [--tasks off]: generates test/soak/soak.yaml (one exec, one http and
// one validate_json tool), serves it over Streamable HTTP against a real local upstream, and keeps C
// callers busy with calls of every kind for N minutes. Reports requests, errors, p50/p99 per kind,
// the server's RSS and open file descriptors at start and end, and child processes left behind once
// the load stops. Meanwhile the task phases (tasks-phase.ts) flood a Redis-backed task server past its
// caps from many principals and kill and restart its Redis mid-soak. Exit code 1 on errors, leftovers,
// a lost task, a hang past the store timeout or a dishonest /readyz.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareTaskPhases } from "./tasks-phase.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const minutes = Number(option("--minutes", "1"));
const concurrency = Number(option("--concurrency", "8"));
/** `--tasks off` leaves out the task phases (tasks-phase.ts). */
const withTasks = option("--tasks", "on") !== "off";
if (!(minutes > 0) || !(concurrency >= 1)) {
  process.stderr.write("usage: npm run soak -- --minutes N [--concurrency C] [--tasks off]\n");
  process.exit(2);
}
const say = (s: string) => process.stderr.write(`soak: ${s}\n`);

// The upstream the http tool calls: small JSON answers, like an API would give.
const upstream = createServer((req, res) => {
  const id = Number(/^\/items\/(\d+)/.exec(req.url ?? "")?.[1] ?? -1);
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id, name: `item ${id}`, tags: ["a", "b"], extra: "x".repeat(200) }));
});
await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

const out = mkdtempSync(join(tmpdir(), "kervan-soak-"));
say(`generating test/soak/soak.yaml into ${out}`);
execFileSync(process.execPath, [join(REPO, "bin/kervan.mjs"), "gen", join(REPO, "test/soak/soak.yaml"), "--out", out], { stdio: ["ignore", "ignore", "inherit"] });
const server = spawn(process.execPath, [join(out, "soak/server.mjs"), "--http", "0"], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, SOAK_BASE_URL: upstreamUrl } });
let stderr = "";
server.stderr!.on("data", (c: Buffer) => (stderr = (stderr + c.toString()).slice(-20_000)));
const url = await new Promise<URL>((resolve, reject) => {
  const t = setInterval(() => {
    const m = /listening on (http:\/\/\S+)/.exec(stderr);
    if (m) clearInterval(t), resolve(new URL(m[1]!));
  }, 50);
  server.once("exit", (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
});
const pid = server.pid!;

const rssMiB = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const fds = () => readdirSync(`/proc/${pid}/fd`).length;
/** Processes whose parent is the server (exec children and their leftovers). */
function children(): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(d));
    } catch {}
  }
  return out;
}

const runTasks = withTasks ? await prepareTaskPhases(REPO, out, minutes, say) : undefined;
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
let nextId = 1;
function call(name: string, args: Record<string, unknown>): Promise<{ ok: boolean; why?: string }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args, _meta: META } });
  const headers = { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name };
  return new Promise((resolve) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (res.statusCode !== 200) return resolve({ ok: false, why: `HTTP ${res.statusCode}: ${text.slice(0, 200)}` });
        try {
          const msg = JSON.parse(text);
          if (msg.error) return resolve({ ok: false, why: `error ${msg.error.code}: ${msg.error.message}` });
          if (msg.result?.isError && name !== "validate_json") return resolve({ ok: false, why: msg.result.content?.[0]?.text?.slice(0, 200) });
          resolve({ ok: true });
        } catch {
          resolve({ ok: false, why: `not JSON: ${text.slice(0, 200)}` });
        }
      });
    });
    req.on("error", (e) => resolve({ ok: false, why: e.message }));
    req.end(body);
  });
}

const SCHEMA = { type: "object", required: ["id", "email"], properties: { id: { type: "integer" }, email: { type: "string", pattern: "^[^@ ]+@[^@ ]+$" }, tags: { type: "array", items: { type: "string" } } } };
const kinds: [string, (i: number) => Promise<{ ok: boolean; why?: string }>][] = [
  ["exec", (i) => call("echo_exec", { text: `hello ${i}` })],
  ["http", (i) => call("lookup_http", { id: i % 1000 })],
  ["validate_json", (i) => call("validate_json", { output: JSON.stringify({ id: i, email: i % 7 ? "a@b.c" : "nope", tags: ["x"] }), schema: SCHEMA })],
  // Now and then a catastrophic pattern: the budget refuses it while everything else keeps going.
  ["validate_json (catastrophic)", () => call("validate_json", { output: JSON.stringify("a".repeat(40) + "b"), schema: { type: "string", pattern: "^(a+)+$" } })],
];
const lat = new Map<string, number[]>(kinds.map(([k]) => [k, []]));
const errors = new Map<string, string[]>(kinds.map(([k]) => [k, []]));

// Warm-up at full concurrency (matcher workers and pooled upstream sockets reach their steady number),
// then the baseline the end is compared with.
await Promise.all(Array.from({ length: concurrency }, (_, n) => Promise.all(kinds.map(([, fn]) => fn(n)))));
const start = { rss: rssMiB(), fds: fds(), children: children().length };
say(`server pid ${pid}: RSS ${start.rss.toFixed(1)} MiB, ${start.fds} fds at start; ${concurrency} callers for ${minutes} min`);
const trend: string[] = [];
const sampler = setInterval(() => trend.push(rssMiB().toFixed(0)), Math.max(5000, (minutes * 60_000) / 20));

const deadline = Date.now() + minutes * 60_000;
let counter = 0;
async function caller(n: number): Promise<void> {
  while (Date.now() < deadline) {
    const i = counter++;
    // Catastrophic calls are rare (1 in 50), the three ordinary kinds share the rest evenly.
    const [kind, fn] = i % 50 === 49 ? kinds[3]! : kinds[i % 3]!;
    const t = performance.now();
    const r = await fn(i * concurrency + n);
    lat.get(kind)!.push(performance.now() - t);
    if (!r.ok) errors.get(kind)!.push(r.why ?? "?");
  }
}
const taskPhases = runTasks ? runTasks() : Promise.resolve({ lines: [], failed: false });
await Promise.all(Array.from({ length: concurrency }, (_, n) => caller(n)));
const tasks = await taskPhases;
clearInterval(sampler);
agent.destroy();
// Let the server close idle sockets (the upstream drops kept-alive ones after 5 s) and reap children
// before looking for leftovers: a leak stays, a pooled socket goes.
const settleBy = Date.now() + 15_000;
while (Date.now() < settleBy && (fds() > start.fds || children().length > 0)) await new Promise((r) => setTimeout(r, 250));
const end = { rss: rssMiB(), fds: fds(), children: children() };

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const all = [...lat.values()].flat();
const errorCount = [...errors.values()].reduce((n, e) => n + e.length, 0);
const lines = [
  `soak: ${minutes} min, ${concurrency} concurrent callers, generated server ${out}/soak/server.mjs over HTTP`,
  `requests: ${all.length} (${(all.length / (minutes * 60)).toFixed(0)}/s), errors: ${errorCount}`,
  `latency all: p50 ${pct(all, 50).toFixed(1)} ms, p99 ${pct(all, 99).toFixed(1)} ms`,
  ...kinds.map(([k]) => `  ${k}: ${lat.get(k)!.length} calls, ${errors.get(k)!.length} errors, p50 ${pct(lat.get(k)!, 50).toFixed(1)} ms, p99 ${pct(lat.get(k)!, 99).toFixed(1)} ms`),
  `server RSS: start ${start.rss.toFixed(1)} MiB, end ${end.rss.toFixed(1)} MiB (samples: ${trend.join(" ")})`,
  ...(trend.length >= 2 ? [`server RSS after warm-up: first sample ${trend[0]} MiB, last ${trend.at(-1)} MiB, highest ${Math.max(...trend.map(Number))} MiB`] : []),
  `open file descriptors: start ${start.fds}, end ${end.fds}`,
  `child processes left: ${end.children.length}${end.children.length ? ` (${end.children.join(", ")})` : ""}`,
  ...[...errors].flatMap(([k, e]) => (e.length ? [`first ${k} errors: ${[...new Set(e)].slice(0, 3).join(" | ")}`] : [])),
  ...tasks.lines,
];
process.stdout.write(lines.join("\n") + "\n");

server.kill("SIGTERM");
await new Promise((r) => server.once("exit", r));
upstream.close();
rmSync(out, { recursive: true, force: true });
process.exit(errorCount > 0 || end.children.length > 0 || end.fds > start.fds || tasks.failed ? 1 : 0);
