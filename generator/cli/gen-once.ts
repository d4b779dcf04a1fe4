// One `kervan gen` build, shared by the command (cli/gen.ts) and its --watch loop (cli/watch.ts):
// the sources from the command line, the build, its diagnostics and summary on stderr.
import { resolve } from "node:path";
import { generate, type GenerateResult } from "../pipeline.js";
import type { SourceFile } from "../model/spec.js";
import { formatAll, sortDiagnostics } from "./diagnostics.js";
import { jsonMode, record, recordDiagnostics, useColour } from "./output.js";
import { readSources, UsageError } from "./sources.js";
import { toolFlagsSource } from "./tool-flags.js";
import { stringOption, type Parsed } from "./command.js";
import { Progress } from "./progress.js";

export function sourcesFrom(p: Parsed, defaultSpecs: string[]): SourceFile[] {
  if (p.toolArgs.length) {
    if (p.positional.length) throw new UsageError("give either spec files or --tool blocks, not both");
    const name = stringOption(p, "--server-name") ?? "kervan-cli";
    const version = stringOption(p, "--server-version") ?? "0.1.0";
    return [toolFlagsSource(p.toolArgs, { name, version })];
  }
  return readSources(p.positional.length ? p.positional : defaultSpecs);
}

/** The diagnostics on stderr (coloured on a terminal), or as data under --json. */
export function printDiagnostics(result: GenerateResult, sources: SourceFile[]): void {
  if (recordDiagnostics(sortDiagnostics(result.diagnostics)) || !result.diagnostics.length) return;
  const lines = new Map(sources.map((s) => [s.path, s.text.split(/\r?\n/)]));
  process.stderr.write(formatAll(result.diagnostics, lines, useColour(process.stderr)));
}

/** The command line to run again without --check, as the user typed it (quoted where needed). */
function rerun(p: Parsed): string {
  const args = process.argv.slice(3).filter((a) => a !== "--check");
  return ["kervan", "gen", ...args].map((a) => (/^[\w./@:=+-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
}

/** One build: diagnostics and the summary line on stderr; exit code 0 or 1. */
export async function genOnce(p: Parsed): Promise<{ code: number; result?: GenerateResult }> {
  const sources = sourcesFrom(p, ["specs"]);
  const check = p.options.has("--check");
  // Under --json the lines are collected, never redrawn in place.
  const progress = new Progress(jsonMode() ? { write: (t: string) => process.stderr.write(t), isTTY: false } : process.stderr);
  let result: GenerateResult;
  try {
    result = await generate(sources, {
      outRoot: resolve(stringOption(p, "--out") ?? "out"),
      check,
      strict: p.options.has("--strict"),
      // Whole-folder runs own the output root; a run over some specs never deletes other servers.
      pruneServers: !p.toolArgs.length && p.positional.length === 0,
      progress: (server, ms, cached) => progress.line(`kervan: ${server} ${cached ? "unchanged" : "generated"} in ${Math.round(ms)} ms`),
      stage: (event) => progress.stage(event),
      ...(p.options.has("--verbose") ? { stageTime: (stage: string, ms: number) => progress.line(`kervan: stage ${stage} ${ms.toFixed(1)} ms`) } : {}),
    });
  } finally {
    progress.end();
  }
  printDiagnostics(result, sources);
  const r = result.report;
  record({ check, servers: result.servers, ...(r ? { written: r.written, unchanged: r.unchanged, deleted: r.deleted, differing: r.differing } : {}) });
  if (!r) return { code: 1, result };
  if (check) {
    if (r.differing.length) {
      process.stderr.write(`kervan: generated output differs from what is checked in:\n${r.differing.map((f) => `  ${f}`).join("\n")}\nrun \`${rerun(p)}\` and commit the result\n`);
      return { code: 1, result };
    }
    process.stderr.write(`kervan: ${r.unchanged.length} files up to date, no drift\n`);
    return { code: 0, result };
  }
  process.stderr.write(`kervan: ${r.written.length} written, ${r.unchanged.length} unchanged, ${r.deleted.length} deleted\n`);
  return { code: 0, result };
}
