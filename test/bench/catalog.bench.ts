// Catalog exposure (docs/catalog.md), as rows of `npm run bench -- --only catalog`:
// - retrieval: recall@5 of search_operations against a plain BM25 (minisearch over name + summary) on
//   the held-out half and the fresh set of each corpus's task phrasings (catalog-retrieval.ts; all
//   sets in the notes);
// - search_operations' scoring p50 at GitHub's ~1,184 operations, against the BM25 baseline's search;
// - call_operation vs the same flat tools/call, stdio round trips to a loopback upstream (shop fixture);
// - cold start of the GitHub catalog server to its first tools/list answer vs `node -e 0`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import MiniSearch from "minisearch";
import { rank } from "../../templates/runtime/catalog/search.js";
import { CORPORA, catalogIndex, formatRow, retrieval } from "./catalog-retrieval.js";
import { LineReader, NODE, REPO, exited, interleave, median, ms, tempDir, type BenchRow } from "./util.js";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const line = (id: number, method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } }) + "\n";

function gen(spec: string, out: string): void {
  const run = spawnSync(NODE, [join(REPO, "bin/kervan.mjs"), "gen", spec, "--out", out], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`kervan gen ${spec} failed: ${run.stderr.slice(-2000)}`);
}

/** Search p50 in microseconds for one scorer over the queries, after a warm-up pass. */
function p50(queries: string[], search: (q: string) => unknown): number {
  for (const q of queries) search(q);
  const times: number[] = [];
  for (let r = 0; r < 20; r++) {
    for (const q of queries) {
      const t = performance.now();
      search(q);
      times.push(performance.now() - t);
    }
  }
  return median(times);
}

async function roundTrips(flat: string, cat: string, upstream: string): Promise<BenchRow> {
  const env = { ...process.env, SHOP_URL: upstream, SHOP_API_KEY: "bench-key-0123456789", SHOP_TOKEN_ALL: "unused-token-0123456789", SHOP_TOKEN_READ: "unused-token-9876543210" };
  const start = (bundle: string): [ChildProcess, LineReader] => {
    const child = spawn(NODE, [bundle], { stdio: ["pipe", "pipe", "ignore"], env });
    return [child, new LineReader(child, bundle)];
  };
  const [a, ra] = start(flat);
  const [b, rb] = start(cat);
  let id = 1;
  const call = async (child: ChildProcess, reader: LineReader, params: Record<string, unknown>) => {
    child.stdin!.write(line(id++, "tools/call", params));
    await reader.next();
  };
  const args = { id: 7 };
  const samples = await interleave(
    [() => call(a, ra, { name: "get_item", arguments: args }), () => call(b, rb, { name: "call_operation", arguments: { name: "get_item", arguments: args } })],
    400,
    50,
  );
  for (const c of [a, b]) c.stdin!.end();
  await Promise.all([exited(a), exited(b)]);
  const [f, c] = samples.map(median) as [number, number];
  return { name: "call_operation vs the same flat tools/call (stdio, loopback upstream)", ratio: c / f, detail: `target ≤ 1.1×; median ${ms(c)} vs ${ms(f)} over 400 interleaved calls` };
}

async function coldStart(bundle: string): Promise<BenchRow> {
  const once = (args: string[], answer: boolean) => () =>
    new Promise<number>((resolve, reject) => {
      const t = performance.now();
      const child = spawn(NODE, args, { stdio: ["pipe", "pipe", "ignore"] });
      child.once("error", reject);
      if (!answer) return void child.once("exit", () => resolve(performance.now() - t));
      const reader = new LineReader(child, "catalog server");
      child.stdin!.write(line(1, "tools/list"));
      void reader.next().then(() => {
        const elapsed = performance.now() - t;
        child.stdin!.end();
        void exited(child).then(() => resolve(elapsed));
      }, reject);
    });
  const [server, bare] = (await interleave([once([bundle], true), once(["-e", "0"], false)], 15, 2)).map(median) as [number, number];
  return { name: "cold start of the GitHub catalog server (spawn -> tools/list answer) vs node -e 0", ratio: server / bare, detail: `target ≤ 1.5×; median ${ms(server)} vs ${ms(bare)}` };
}

export async function benchCatalog(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dir = tempDir("catalog");
  const notes: string[] = [];
  for (const c of CORPORA) {
    const index = catalogIndex(c, dir);
    const [tune, held, fresh] = retrieval(c, index, ["tune", "held-out", "fresh"]);
    notes.push(formatRow(tune!), formatRow(held!), formatRow(fresh!));
    for (const r of [held!, fresh!]) {
      rows.push({ name: `${c.key}: search_operations recall@5 vs BM25 name+summary, ${r.half} phrasings`, ratio: r.ours.at5 / Math.max(r.bm25.at5, 1), detail: `recall@5 ${r.ours.at5}/${r.ours.n} vs ${r.bm25.at5}/${r.bm25.n} (higher is better; target recall@5 ≥ 90%); all sets: ${notes.slice(-3).join(" ")}` });
    }
    if (c.key === "github") {
      const queries = JSON.parse(readFileSync(join(REPO, "test/bench/fixtures/catalog/github.json"), "utf8")).tasks.map((t: { q: string }) => t.q) as string[];
      const mini = new MiniSearch({ fields: ["name", "summary"] });
      mini.addAll(index.ops.map(([name, summary], id) => ({ id, name, summary })));
      const ours = p50(queries, (q) => rank(index, q, () => true));
      const base = p50(queries, (q) => mini.search(q));
      rows.push({ name: `search_operations scoring p50 at ${index.ops.length} operations vs minisearch BM25 search`, ratio: ours / base, detail: `median ${(ours * 1000).toFixed(0)} µs vs ${(base * 1000).toFixed(0)} µs` });
    }
  }
  // The shop fixture built both ways, against one loopback upstream.
  const upstream = createServer((_req, res) => res.end(JSON.stringify({ id: 7, name: "lamp" })));
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  try {
    const built: string[] = [];
    for (const exposure of ["tools", "catalog"]) {
      const spec = join(dir, `shop-${exposure}.yaml`);
      writeFileSync(spec, readFileSync(join(REPO, "test/fixtures/catalog/shop.yaml"), "utf8").replace("exposure: tools", `exposure: ${exposure}`));
      gen(spec, join(dir, `out-${exposure}`));
      built.push(join(dir, `out-${exposure}/shop-fixture/server.mjs`));
    }
    rows.push(await roundTrips(built[0]!, built[1]!, `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`));
  } finally {
    upstream.close();
  }
  gen(join(dir, "github.yaml"), join(dir, "out-github"));
  rows.push(await coldStart(join(dir, "out-github/github/server.mjs")));
  return rows;
}
