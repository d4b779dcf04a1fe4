// Imports real API descriptions and builds each imported spec with the generator (`kervan gen`'s
// pipeline): every document either builds or is refused with a named reason. Shared by the corpus
// test in `npm test` (a representative part) and `npm run corpus` (all of it).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importOpenApi, ImportError } from "../../generator/import/importer.js";
import { generate } from "../../generator/pipeline.js";
import { parseWithPositions } from "../../generator/load.js";
import { parse } from "yaml";

export type Outcome =
  | { id: string; status: "built"; tools: number; skipped: number; importMs: number; genMs: number }
  | { id: string; status: "refused"; reason: string; message: string }
  | { id: string; status: "failed"; message: string };

export interface CorpusOptions {
  dir: string;
  /** Build each imported spec (emit and bundle); otherwise the check stage alone. */
  build: boolean;
}

/** Imports one document (written to `dir`) and builds the result. A build failure, or a written spec that reads back as other data, is a bug in the importer. */
export async function importAndBuild(id: string, text: string, opts: CorpusOptions): Promise<Outcome> {
  const base = join(opts.dir, id.replace(/[^A-Za-z0-9._-]+/g, "_"));
  mkdirSync(base, { recursive: true });
  const file = join(base, "openapi.json");
  writeFileSync(file, text);
  const t0 = performance.now();
  let result;
  try {
    // The tool budget is not under test here: every operation is imported.
    result = await importOpenApi({ file, maxTools: 100_000, out: `${base}/spec.yaml` });
  } catch (e) {
    if (e instanceof ImportError) return { id, status: "refused", reason: e.reason, message: e.message };
    return { id, status: "failed", message: `import crashed: ${(e as Error).stack}` };
  }
  const importMs = performance.now() - t0;
  const readBack = readsBack(result.text, result.data);
  if (readBack) return { id, status: "failed", message: readBack };
  const spec = join(base, "spec.yaml");
  writeFileSync(spec, result.text);
  const t1 = performance.now();
  const gen = await generate([{ path: spec, text: result.text }], { outRoot: join(base, "out"), check: !opts.build, pruneServers: false });
  const errors = gen.diagnostics.filter((d) => d.severity === "error");
  if (errors.length || !gen.report) return { id, status: "failed", message: `kervan gen refused the import: ${errors.slice(0, 3).map((d) => `${d.code} ${d.message} (${d.location.pointer})`).join("; ")}` };
  return { id, status: "built", tools: result.tools.length, skipped: result.skipped.length, importMs, genMs: performance.now() - t1 };
}

/** Why the written spec does not read back (with kervan's loader and with the `yaml` package) as exactly the imported data, if it does not. */
export function readsBack(text: string, data: unknown): string | undefined {
  const loaded = parseWithPositions(text, true);
  if (loaded.errors.length) return `the written spec does not parse: ${loaded.errors[0].message} (line ${loaded.errors[0].pos.line})`;
  const want = JSON.stringify(data);
  if (JSON.stringify(loaded.doc) !== want) return "the written spec reads back (kervan's loader) as other data than was imported";
  if (JSON.stringify(parse(text)) !== want) return "the written spec reads back (the yaml package) as other data than was imported";
  return undefined;
}

/** Refusal reasons by count, most frequent first, as printed lines. */
export function refusalSummary(outcomes: Outcome[]): string[] {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    if (o.status !== "refused") continue;
    // A document with no importable operation is counted by why its first operation was skipped.
    const first = o.message.includes("could be imported: ") ? o.message.replace(/^.*could be imported: /, "").split(";")[0].replace(/'[^']*'|"[^"]*"/g, "…").slice(0, 90) : "the document describes no operations";
    const why = o.reason === "no-operations" ? `no-operations (${first})` : o.reason;
    counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([why, n]) => `${String(n).padStart(4)}  ${why}`);
}
