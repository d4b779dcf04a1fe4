// npm run bench: every measurement as a ratio against a baseline timed in the same run
// (interleaved, medians, after warm-up), printed as one table with its target and whether it is
// met, plus the absolute medians. Nothing here asserts on time: a missed target is reported, not
// failed; only a benchmark that cannot run (a broken server, a failing build) sets exit code 1.
// Progress goes to stderr, the report to stdout. Network: 127.0.0.1 only.
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg, platform, release } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { benchColdStart, benchRoundTrip, buildBench10, buildOpenApi10 } from "./startup.bench.js";
import { benchGenerate } from "./generate.bench.js";
import { benchImport } from "./import.bench.js";
import { benchFloor, FLOOR_PARTS } from "./floor.bench.js";
import { openApiGeneratorVersion } from "./fixtures/openapi-project.js";
import { merge, readResults, RESULTS, toResult, writeResults, type Machine } from "./results.js";
import { REPO, cleanupTemp, met, ms, table, targetFromDetail, type BenchRow, type Row, type Target } from "./util.js";

const started = performance.now();
const startLoad = loadavg()[0]!;
const rows: Row[] = [];
const notes: string[] = [];
const failures: string[] = [];
let profile: string[] | undefined;
// Which --only key each row came from, and the keys whose section failed (their old results stay).
const groupOf = new Map<Row, string>();
const failedGroups = new Set<string>();
let group = "";
const tagRows = () => rows.forEach((r) => groupOf.has(r) || groupOf.set(r, group));

const progress = (s: string) => process.stderr.write(`bench: ${s}\n`);

// `npm run bench -- --only import,generate` runs just those sections (keys: startup, exec, sandbox,
// http, validate-json, hardening, tasks, serving, resources, generate, import, catalog, codemode, floor); without it, every section runs.
// floor: issue 26's table (`--parts start,stdio,...` runs some of its rows, a trial that writes no results).
const SECTIONS = ["startup", "exec", "sandbox", "http", "validate-json", "hardening", "tasks", "serving", "resources", "generate", "import", "catalog", "codemode", "floor"];
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt > 0 ? new Set((process.argv[onlyAt + 1] ?? "").split(",").filter(Boolean)) : undefined;
for (const key of only ?? []) {
  if (!SECTIONS.includes(key)) {
    console.error(`bench: unknown section ${JSON.stringify(key)} for --only; the sections are ${SECTIONS.join(", ")}`);
    process.exit(2);
  }
}
const wanted = (key: string) => !only || only.has(key);
const partsAt = process.argv.indexOf("--parts");
const parts = partsAt > 0 ? (process.argv[partsAt + 1] ?? "").split(",").filter(Boolean) : undefined;
for (const p of parts ?? []) {
  if (!FLOOR_PARTS.includes(p)) {
    console.error(`bench: unknown part ${JSON.stringify(p)} for --parts; the parts are ${FLOOR_PARTS.join(", ")}`);
    process.exit(2);
  }
}
// `--rounds N`: rounds of the import section (default 2), for a steadier median on a busy machine.
const roundsAt = process.argv.indexOf("--rounds");
const roundsOption = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : undefined;
if (roundsOption !== undefined && !(Number.isInteger(roundsOption) && roundsOption > 0)) {
  console.error("bench: --rounds takes a whole number of rounds (1 or more)");
  process.exit(2);
}

async function section(name: string, fn: () => Promise<void>): Promise<void> {
  const t = performance.now();
  progress(`${name} ...`);
  try {
    await fn();
    progress(`${name} done in ${ms(performance.now() - t)}`);
  } catch (e) {
    const msg = e instanceof Error ? (e.stack ?? e.message) : String(e);
    failures.push(`${name}: ${msg}`);
    failedGroups.add(group);
    progress(`${name} FAILED: ${msg.split("\n")[0]}`);
  }
}

/**
 * A bench module owned elsewhere (exec.bench.ts, http.bench.ts, validate-json.bench.ts), loaded
 * only when its file exists; its rows keep the target their detail names, else `fallback`.
 */
async function external(file: string, fn: string, title: string, fallback: Target | undefined): Promise<void> {
  group = file.replace(/\.bench\.ts$/, "");
  if (!wanted(group)) return;
  const path = join(REPO, "test/bench", file);
  if (!existsSync(path)) {
    notes.push(`${title}: ${file} is not there yet; skipped.`);
    return;
  }
  await section(title, async () => {
    const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    const bench = mod[fn];
    if (typeof bench !== "function") {
      notes.push(`${title}: ${file} has no ${fn}(); skipped.`);
      return;
    }
    const out = (await (bench as () => Promise<BenchRow[]>)()) ?? [];
    for (const r of out) {
      const m = /median ([\d.]+ ?(?:ms|µs|s)) vs ([\d.]+ ?(?:ms|µs|s))/.exec(r.detail);
      const rate = /([\d.,]+\s*\/s) vs ([\d.,]+\s*\/s)/.exec(r.detail);
      rows.push({
        section: `${title} (${file})`,
        name: r.name,
        ratio: r.ratio,
        target: targetFromDetail(r.detail) ?? fallback,
        subject: m?.[1] ?? rate?.[1],
        baseline: m?.[2] ?? rate?.[2],
        throughput: !m && !!rate,
        detail: r.detail,
      });
      notes.push(`${r.name}: ${r.detail}`);
    }
  });
  tagRows();
}

function version(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(join(REPO, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "not installed";
  }
}

const cpu = cpus();
console.log("# Kervan benchmarks (npm run bench)");
console.log(
  `node ${process.version} on ${platform()} ${release()}, ${cpu.length} × ${cpu[0]?.model.trim() ?? "cpu"}; ` +
    `openapi-mcp-generator ${openApiGeneratorVersion() ?? "not installed"}, typescript ${version("typescript")}, esbuild ${version("esbuild")}`,
);
console.log("Every ratio is subject / baseline, both measured in the same run (medians of interleaved rounds); lower is better, except rates marked ↑ (operations per second, higher is better).");

group = "startup";
let kervan10: string | undefined;
let openapi10: Awaited<ReturnType<typeof buildOpenApi10>>;
if (wanted("startup")) await section("building the 10-tool servers (Kervan: fixtures/bench10.yaml; openapi-mcp-generator: gen + tsc)", async () => {
  kervan10 = await buildBench10();
  try {
    openapi10 = await buildOpenApi10();
  } catch (e) {
    notes.push(`openapi-mcp-generator 10-op server could not be built, so its cold start is not measured: ${String(e).split("\n")[0]}`);
  }
});

if (kervan10) {
  const entry = kervan10;
  await section("cold start", async () => {
    const r = await benchColdStart(entry, openapi10);
    rows.push(...r.rows);
    notes.push(...r.notes);
  });
  await section("stdio round trip", async () => {
    const r = await benchRoundTrip(entry);
    rows.push(...r.rows);
    notes.push(...r.notes);
  });
}
tagRows();

await external("exec.bench.ts", "benchExec", "Exec call vs bare child_process.spawn", { op: "≤", value: 1.2 });
await external("sandbox.bench.ts", "benchSandbox", "Exec under the OS sandbox (bubblewrap)", undefined);
await external("http.bench.ts", "benchHttp", "HTTP tool call vs bare fetch (127.0.0.1 upstream)", { op: "≤", value: 1.15 });
await external("validate-json.bench.ts", "benchValidateJson", "validate_json", undefined);
await external("hardening.bench.ts", "benchHardening", "validate_json pattern budget under load", undefined);
await external("tasks.bench.ts", "benchTasks", "Tasks: tasks/get round trip vs a bare Redis GET; task-augmented vs plain call", undefined);
await external("catalog.bench.ts", "benchCatalog", "Catalog exposure: retrieval, search, call_operation, cold start (about three minutes)", undefined);
await external("codemode.bench.ts", "benchCodemode", "Code mode: execute vs round trips, fixed cost, memory, GitHub listing tokens", undefined);
await external("serving.bench.ts", "benchServing", "Streamable HTTP serving (1/16/64 connections) vs node:http echo and the official SDK", undefined);
await external("resources.bench.ts", "benchResources", "Resources and completion: resources/read and completion/complete vs a cheap tools/call", undefined);

group = "generate";
if (wanted("generate")) await section("generation + bundling (10, 100, 1,000 tools; about two minutes)", async () => {
  const r = await benchGenerate();
  rows.push(...r.rows);
  notes.push(...r.notes);
  profile = r.profile;
});
tagRows();

group = "import";
if (wanted("import")) await section("OpenAPI import of GitHub's REST description vs openapi-mcp-generator (about three minutes)", async () => {
  const r = await benchImport(roundsOption ?? undefined);
  rows.push(...r.rows);
  notes.push(...r.notes);
});
tagRows();

group = "floor";
if (wanted("floor")) await section("issue 26: every row against its floor or peer (about ten minutes)", async () => {
  rows.push(...(await benchFloor(parts, progress)));
});
tagRows();

cleanupTemp();

console.log(table(rows));
if (notes.length) console.log(["", "## Notes", ...notes.map((n) => `- ${n.replace(/\n/g, "\n  ")}`)].join("\n"));
if (profile) console.log(["", "## Profile", ...profile].join("\n"));

const targeted = rows.filter((r) => r.target);
const missed = targeted.filter((r) => met(r.ratio, r.target) !== true);
console.log("\n## Summary");
console.log(`${targeted.length - missed.length} of ${targeted.length} targets met; ${rows.length - targeted.length} rows are for information.`);
for (const r of missed) console.log(`  missed: ${r.name}: ${Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×` : "n/a"} (target ${r.target!.op} ${r.target!.value}×)`);
for (const f of failures) console.log(`  FAILED to run: ${f.split("\n")[0]}`);
console.log(`bench finished in ${ms(performance.now() - started)}`);
saveResults();
if (failures.length) {
  console.error(failures.join("\n\n"));
  process.exitCode = 1;
}

/**
 * test/bench/results.json and the README table: the rows of every section that ran without
 * failing replace that section's earlier rows; the others keep theirs, with their own dates.
 * `--no-results` leaves both files alone (a trial run).
 */
function saveResults(): void {
  if (process.argv.includes("--no-results") || parts) return;
  const date = new Date().toISOString().slice(0, 10);
  const machine: Machine = { node: process.version, os: `${platform()} ${release()}`, cpus: `${cpu.length} × ${cpu[0]?.model.trim() ?? "cpu"}`, load: Number(startLoad.toFixed(2)) };
  const groups = SECTIONS.filter((g) => !failedGroups.has(g) && rows.some((r) => groupOf.get(r) === g));
  if (!groups.length) return;
  const fresh = rows.filter((r) => groups.includes(groupOf.get(r)!)).map((r) => toResult(r, groupOf.get(r)!, date, machine));
  writeResults(merge(existsSync(RESULTS) ? readResults() : undefined, fresh, { date, machine, groups }, SECTIONS));
  progress(`results of ${groups.join(", ")} written to test/bench/results.json and the README table`);
}
