// Retrieval of search_operations, measured: task phrasings written as a user asks
// (fixtures/catalog/*.json), each with the operations that satisfy it, against the catalog index the
// generator builds for the imported API, scored by the runtime's own rank(); and, in the same run, a
// plain BM25 baseline (minisearch over each operation's name and summary). Even-numbered phrasings
// are the tuning half, odd-numbered ones were held out while tuning; a third set, fresh
// (fixtures/catalog/*-fresh.json), was written before the index was tuned against it and is never
// tuned to; a fourth, unseen (fixtures/catalog/*-unseen.json), was written before the index was tuned
// after the fresh set, and is run only to report, never while tuning (`--half all` leaves it out).
// `node bin/run-ts.mjs test/bench/catalog-retrieval.ts [--half tune|held-out|fresh|unseen|all]
// [--corpus KEY] [--misses]` prints the table.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import MiniSearch from "minisearch";
import { load } from "../../generator/load.js";
import { normalize } from "../../generator/normalize.js";
import { buildIndex } from "../../generator/catalog/index.js";
import { rank } from "../../templates/runtime/catalog/search.js";
import type { CatalogIndex } from "../../templates/runtime/catalog/types.js";
import { REPO, tempDir } from "./util.js";

interface Task {
  q: string;
  ops: string[];
}

export interface Corpus {
  key: string;
  /** The API description, written to a file for `kervan import`. */
  document: () => string;
  tasks: string;
  /** The fresh set's file, every entry held out. */
  fresh: string;
  /** The unseen set's file, every entry held out, run only to report. */
  unseen: string;
}

const corpus = (id: string) => () => {
  const lines = gunzipSync(readFileSync(join(REPO, "test/fixtures/openapi/corpus/apis-guru-sample.jsonl.gz"))).toString("utf8").split("\n");
  for (const line of lines) if (line.startsWith(`{"id":${JSON.stringify(id)}`)) return JSON.stringify(JSON.parse(line).doc);
  throw new Error(`${id} is not in the corpus sample`);
};

export const CORPORA: Corpus[] = [
  { key: "github", document: () => gunzipSync(readFileSync(join(REPO, "test/fixtures/openapi/corpus/api.github.com.json.gz"))).toString("utf8"), tasks: "github.json", fresh: "github-fresh.json", unseen: "github-unseen.json" },
  { key: "asana", document: corpus("asana.com"), tasks: "asana.json", fresh: "asana-fresh.json", unseen: "asana-unseen.json" },
  { key: "calendar", document: corpus("googleapis.com/calendar"), tasks: "calendar.json", fresh: "calendar-fresh.json", unseen: "calendar-unseen.json" },
];

/** Imports the document with --exposure catalog and builds its index as `kervan gen` would. */
export function catalogIndex(c: Corpus, dir = tempDir(`catalog-${c.key}`)): CatalogIndex {
  const doc = join(dir, `${c.key}.json`);
  const spec = join(dir, `${c.key}.yaml`);
  // KERVAN_BENCH_REUSE=DIR keeps the imports between runs (the import is most of the time).
  if (!existsSync(spec)) importCorpus(c, doc, spec);
  const specs = load([{ path: spec, text: readFileSync(spec, "utf8") }], []);
  return buildIndex(normalize(specs)[0]);
}

function importCorpus(c: Corpus, doc: string, spec: string): void {
  writeFileSync(doc, c.document());
  const run = spawnSync(process.execPath, [join(REPO, "bin/kervan.mjs"), "import", doc, "--name", c.key, "--exposure", "catalog", "--out", spec], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`kervan import of ${c.key} failed: ${run.stderr}`);
}

export type Half = "tune" | "held-out" | "fresh" | "unseen";
export const HALVES: Half[] = ["tune", "held-out", "fresh"];

function tasksOf(file: string): Task[] {
  return (JSON.parse(readFileSync(join(REPO, "test/bench/fixtures/catalog", file), "utf8")) as { tasks: Task[] }).tasks;
}

/** The phrasings of one half: even entries of the first set tune, odd ones are held out; the fresh set whole. */
export function halfOf(c: Corpus, half: Half): Task[] {
  if (half === "fresh") return tasksOf(c.fresh);
  if (half === "unseen") return tasksOf(c.unseen);
  return tasksOf(c.tasks).filter((_, i) => (i % 2 === 0) === (half === "tune"));
}

/** A plain BM25 over name + summary (minisearch's defaults), the floor to beat. */
function baseline(index: CatalogIndex): (q: string) => string[] {
  const mini = new MiniSearch<{ id: number; name: string; summary: string }>({ fields: ["name", "summary"], storeFields: ["name"], tokenize: (s) => s.split(/[^A-Za-z0-9]+/).filter(Boolean) });
  mini.addAll(index.ops.map(([name, summary], id) => ({ id, name, summary })));
  return (q) => mini.search(q).map((r) => index.ops[r.id as number][0]);
}

export interface Recall {
  n: number;
  at1: number;
  at5: number;
  at10: number;
  misses: string[];
}

function recall(tasks: Task[], search: (q: string) => string[]): Recall {
  const r: Recall = { n: tasks.length, at1: 0, at5: 0, at10: 0, misses: [] };
  for (const t of tasks) {
    const ranked = search(t.q);
    const pos = ranked.findIndex((name) => t.ops.includes(name));
    if (pos === 0) r.at1++;
    if (pos >= 0 && pos < 5) r.at5++;
    if (pos >= 0 && pos < 10) r.at10++;
    if (pos < 0 || pos >= 5) r.misses.push(`${t.q} -> ${ranked.slice(0, 3).join(", ")} (want ${t.ops[0]}${pos >= 0 ? ` at ${pos + 1}` : ""})`);
  }
  return r;
}

export interface RetrievalRow {
  corpus: string;
  half: Half;
  ours: Recall;
  bm25: Recall;
  operations: number;
}

export function retrieval(c: Corpus, index: CatalogIndex, halves: Half[]): RetrievalRow[] {
  const bm25 = baseline(index);
  const ours = (q: string) => rank(index, q, () => true).slice(0, 10).map((i) => index.ops[i][0]);
  return halves.map((half) => {
    const tasks = halfOf(c, half);
    return { corpus: c.key, half, ours: recall(tasks, ours), bm25: recall(tasks, bm25), operations: index.ops.length };
  });
}

const pct = (k: number, n: number) => `${((100 * k) / n).toFixed(0)}%`;

export function formatRow(r: RetrievalRow): string {
  const f = (x: Recall) => `${pct(x.at1, x.n)} / ${pct(x.at5, x.n)} / ${pct(x.at10, x.n)}`;
  return `| ${r.corpus} (${r.operations} ops) | ${r.half} | ${r.ours.n} | ${f(r.ours)} | ${f(r.bm25)} |`;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("catalog-retrieval.ts")) {
  const at = process.argv.indexOf("--half");
  const half = at > 0 ? process.argv[at + 1] : "all";
  const halves = half === "unseen" ? (["unseen"] as Half[]) : HALVES.filter((h) => half === "all" || h === half);
  const only = process.argv.indexOf("--corpus") > 0 ? process.argv[process.argv.indexOf("--corpus") + 1] : undefined;
  console.log("| corpus | half | phrasings | search_operations recall@1/5/10 | BM25 name+summary recall@1/5/10 |\n|---|---|---|---|---|");
  const misses: string[] = [];
  for (const c of CORPORA.filter((x) => !only || x.key === only)) {
    for (const row of retrieval(c, catalogIndex(c, process.env.KERVAN_BENCH_REUSE), halves)) {
      console.log(formatRow(row));
      if (process.argv.includes("--misses")) misses.push(...row.ours.misses.map((m) => `${c.key} ${row.half}: ${m}`));
    }
  }
  if (misses.length) console.log(misses.join("\n"));
}
