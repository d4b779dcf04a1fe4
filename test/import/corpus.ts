// Imports real API descriptions and builds each imported spec with the generator (`kervan gen`'s
// pipeline): every document either builds or is refused with a named reason; the re-import command
// printed in each spec gives the same bytes, and each tool's input schema accepts its generated
// example. Shared by the corpus test in `npm test` (a representative part) and `npm run corpus`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importOpenApi, ImportError } from "../../generator/import/importer.js";
import { generate } from "../../generator/pipeline.js";
import { parseWithPositions } from "../../generator/load.js";
import { parse } from "yaml";
import { Validator } from "@cfworker/json-schema";
import { shownPath, type ImportOptions } from "../../generator/import/importer.js";
import { reimportOptions } from "../../generator/import/recorded.js";
import { exampleOf } from "../../generator/import/examples.js";
import { givenOptions, importCommand } from "../../generator/cli/import.js";
import { parseArgs } from "../../generator/cli/command.js";

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
  const unsatisfied = examplesFail(result.data);
  if (unsatisfied) return { id, status: "failed", message: unsatisfied };
  const again = await reimportsSame(base, result.text);
  if (again) return { id, status: "failed", message: again };
  const spec = join(base, "spec.yaml");
  writeFileSync(spec, result.text);
  const t1 = performance.now();
  const gen = await generate([{ path: spec, text: result.text }], { outRoot: join(base, "out"), check: !opts.build, pruneServers: false });
  const errors = gen.diagnostics.filter((d) => d.severity === "error");
  if (errors.length || !gen.report) return { id, status: "failed", message: `kervan gen refused the import: ${errors.slice(0, 3).map((d) => `${d.code} ${d.message} (${d.location.pointer})`).join("; ")}` };
  return { id, status: "built", tools: result.tools.length, skipped: result.skipped.length, importMs, genMs: performance.now() - t1 };
}

/**
 * Runs the re-import command printed in the spec's header (parsed as the CLI parses it, with the
 * options recorded in the spec, as the CLI merges them) and says why its text differs, if it does.
 */
export async function reimportsSame(base: string, text: string): Promise<string | undefined> {
  const line = /^# Re-import after the API changes: kervan import (.*) \(prints the changelog\)\.$/m.exec(text);
  if (!line) return "the spec's header has no re-import command";
  const parsed = parseArgs(importCommand, line[1].split(" "));
  const [file] = parsed.positional;
  const out = parsed.options.get("--out") as string;
  const given = reimportOptions(out, text, shownPath(file), givenOptions(parsed.options));
  let again;
  try {
    again = await importOpenApi({ file: join(base, file), out: join(base, out), ...given } as ImportOptions);
  } catch (e) {
    return `the printed re-import command failed: ${(e as Error).message}`;
  }
  if (again.text === text) return undefined;
  const a = text.split("\n");
  const b = again.text.split("\n");
  const at = a.findIndex((l, i) => l !== b[i]);
  return `the printed re-import command (${line[1]}) gives other bytes, from line ${at + 1}: ${JSON.stringify(a[at]?.slice(0, 160))} became ${JSON.stringify(b[at]?.slice(0, 160))}`;
}

// Keywords the example generator does not aim at: an example that fails only on these says nothing
// about satisfiability (the importer keeps such operations).
const UNAIMED = new Set(["pattern", "format", "multipleOf", "uniqueItems", "not", "propertyNames", "dependentRequired", "dependentSchemas", "contains", "minProperties", "maxProperties", "oneOf", "if", "then", "else"]);

/** Why some imported input schema has no generated example that it accepts, if one has none. */
export function examplesFail(data: unknown): string | undefined {
  for (const tool of (data as { tools: Array<{ name: string; input?: Record<string, unknown> }> }).tools) {
    if (!tool.input) continue;
    const example = exampleOf(tool.input as never);
    if ("conflict" in example) return `tool ${tool.name}: its input schema has no example: ${example.conflict}`;
    // An interpreting validator: one check per schema, nothing compiled.
    const result = new Validator(tool.input as never, "2020-12", false).validate(example.value);
    if (result.valid) continue;
    const errors = result.errors.filter((e) => !UNAIMED.has(e.keyword) && !(e.keyword === "properties" || e.keyword === "items" || e.keyword === "allOf" || e.keyword === "anyOf" || e.keyword === "$ref"));
    if (errors.length) return `tool ${tool.name}: the generated example ${JSON.stringify(example.value).slice(0, 200)} fails its input schema: ${errors.slice(0, 3).map((e) => `${e.instanceLocation} ${e.keyword}: ${e.error}`).join("; ")}`;
  }
  return undefined;
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
