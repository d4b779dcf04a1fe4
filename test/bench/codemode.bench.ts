// Code mode (server.exposure: code, docs/code-mode.md): one execute making 10 inner calls vs 10
// direct tools/call round trips (stdio and Streamable HTTP), the fixed cost of an empty program vs a
// cheap tools/call, the memory of concurrent executions, and the tokens of the code-mode tools/list
// for the whole GitHub catalog. The shop fixture is built both ways against one loopback upstream.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { CORPORA } from "./catalog-retrieval.js";
import { catalogIndex } from "./catalog-retrieval.js";
import { LineReader, NODE, REPO, exited, interleave, median, ms, tempDir, type BenchRow } from "./util.js";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const body = (id: number, method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } });
const TOKEN = "bench-token-0123456789abcdef";
const TEN = `const out = []; for (let i = 1; i <= 10; i++) out.push(await api.get_item({ id: i })); return out.length;`;

function gen(spec: string, out: string): void {
  const run = spawnSync(NODE, [join(REPO, "bin/kervan.mjs"), "gen", spec, "--out", out], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`kervan gen ${spec} failed: ${run.stderr.slice(-2000)}`);
}

function build(dir: string, exposure: "tools" | "code"): string {
  const spec = join(dir, `shop-${exposure}.yaml`);
  writeFileSync(spec, readFileSync(join(REPO, "test/fixtures/codemode/shop.yaml"), "utf8").replace("exposure: tools", `exposure: ${exposure}\n  code: { concurrent: 16, queue: 64 }`));
  gen(spec, join(dir, `out-${exposure}`));
  return join(dir, `out-${exposure}/shop-code/server.mjs`);
}

type Call = (params: Record<string, unknown>) => Promise<Record<string, any>>;

function stdio(bundle: string, env: NodeJS.ProcessEnv): { call: Call; child: ChildProcess } {
  const child = spawn(NODE, [bundle], { stdio: ["pipe", "pipe", "ignore"], env });
  const reader = new LineReader(child, bundle);
  let id = 1;
  const call: Call = async (params) => {
    child.stdin!.write(body(id++, "tools/call", params) + "\n");
    return JSON.parse(await reader.next());
  };
  return { call, child };
}

async function http(bundle: string, env: NodeJS.ProcessEnv): Promise<{ call: Call; child: ChildProcess }> {
  const child = spawn(NODE, [bundle, "--http", "0"], { stdio: ["ignore", "ignore", "pipe"], env });
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.once("exit", () => reject(new Error(`server exited: ${err}`)));
  });
  let id = 1;
  const call: Call = async (params) => {
    const headers = { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": String(params.name), authorization: `Bearer ${TOKEN}` };
    const r = await fetch(url, { method: "POST", headers, body: body(id++, "tools/call", params) });
    return (await r.json()) as Record<string, any>;
  };
  return { call, child };
}

function ok(answer: Record<string, any>): void {
  if (!answer.result || answer.result.isError) throw new Error(`call failed: ${JSON.stringify(answer).slice(0, 400)}`);
}

async function tenCalls(kind: string, flat: Call, code: Call): Promise<BenchRow> {
  const direct = async () => { for (let i = 1; i <= 10; i++) ok(await flat({ name: "get_item", arguments: { id: i } })); };
  const program = async () => ok(await code({ name: "execute", arguments: { code: TEN } }));
  const [p, d] = (await interleave([program, direct], 60, 10)).map(median) as [number, number];
  return { name: `one execute with 10 inner calls vs 10 direct tools/call round trips (${kind})`, ratio: p / d, detail: `lower is better; median ${ms(p)} vs ${ms(d)} over 60 interleaved rounds` };
}

async function fixedCost(flat: Call, code: Call): Promise<BenchRow> {
  const empty = async () => ok(await code({ name: "execute", arguments: { code: "return 1;" } }));
  const cheap = async () => ok(await flat({ name: "get_item", arguments: { id: 1 } }));
  const [e, c] = (await interleave([empty, cheap], 200, 30)).map(median) as [number, number];
  return { name: "an empty execute program vs a cheap tools/call (stdio)", ratio: e / c, detail: `target ≤ 3×; median ${ms(e)} vs ${ms(c)} over 200 interleaved calls` };
}

/** RSS of the code server while n programs run at once, against its idle RSS (read from /proc). */
async function memory(child: ChildProcess, code: Call, n: number): Promise<BenchRow> {
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
  const idle = rss();
  let peak = idle;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 5);
  const busy = `let s = 0; const a = []; for (let i = 0; i < 20000; i++) { a.push({ i, s: "x" + i }); s += i; } const got = await api.get_item({ id: 1 }); return s + got.id;`;
  await Promise.all(Array.from({ length: n }, () => code({ name: "execute", arguments: { code: busy } }).then(ok)));
  clearInterval(timer);
  const per = (peak - idle) / n;
  return { name: `memory per concurrent execution (${n} at once, peak RSS over idle)`, ratio: peak / idle, detail: `report; ${(per / 1048576).toFixed(1)} MiB per execution; peak ${(peak / 1048576).toFixed(0)} MiB vs idle ${(idle / 1048576).toFixed(0)} MiB` };
}

/** o200k tokens of tools/list for the whole GitHub REST catalog in code mode, from its manifest. */
function githubTokens(dir: string): BenchRow {
  const github = CORPORA.find((c) => c.key === "github")!;
  catalogIndex(github, dir);
  const spec = join(dir, "github-code.yaml");
  writeFileSync(spec, readFileSync(join(dir, "github.yaml"), "utf8").replace("exposure: catalog", "exposure: code"));
  gen(spec, join(dir, "out-github-code"));
  const manifest = JSON.parse(readFileSync(join(dir, "out-github-code/github/kervan.manifest.json"), "utf8"));
  const total: number = manifest.listing.total;
  return { name: `tokens of the code-mode tools/list for the whole GitHub catalog (${manifest.tools.length} operations) vs the 1,000 target`, ratio: total / 1000, detail: `target ≤ 1×; ${total} o200k tokens (${manifest.listing.encoding})` };
}

export async function benchCodemode(): Promise<BenchRow[]> {
  const dir = tempDir("codemode");
  const upstream = createServer((req, res) => res.end(JSON.stringify({ id: Number(/\/items\/(\d+)/.exec(req.url ?? "")?.[1] ?? 1), name: "lamp", price: 3 })));
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const env = { ...process.env, SHOP_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, SHOP_API_KEY: "bench-key-0123456789", SHOP_TOKEN_ALL: TOKEN, SHOP_TOKEN_READ: "unused-token-9876543210" };
  const children: ChildProcess[] = [];
  const rows: BenchRow[] = [];
  try {
    const [flatBundle, codeBundle] = [build(dir, "tools"), build(dir, "code")];
    const [sf, sc] = [stdio(flatBundle, env), stdio(codeBundle, env)];
    children.push(sf.child, sc.child);
    rows.push(await tenCalls("stdio", sf.call, sc.call));
    rows.push(await fixedCost(sf.call, sc.call));
    const [hf, hc] = await Promise.all([http(flatBundle, env), http(codeBundle, env)]);
    children.push(hf.child, hc.child);
    rows.push(await tenCalls("Streamable HTTP", hf.call, hc.call));
    rows.push(await memory(hc.child, hc.call, 16));
  } finally {
    for (const c of children) c.kill();
    await Promise.all(children.map(exited));
    upstream.close();
  }
  rows.push(githubTokens(dir));
  return rows;
}
