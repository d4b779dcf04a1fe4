// Generation plus bundling for 10, 100 and 1,000 synthetic exec tools, each run a fresh
// `kervan gen` process into a fresh output folder (nothing cached), against openapi-mcp-generator
// generating an equivalent OpenAPI 3 document and `tsc` building the project it wrote, interleaved
// in the same run. Then a re-run of the largest spec onto its own output (the manifest's input
// hash makes it a cache hit), and, when the largest size misses its target, a per-stage profile
// of one in-process build (`--profile SPEC` runs just that and prints JSON).
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execSpec, openApiDoc } from "./fixtures/synthetic.js";
import { OPENAPI_MCP_GENERATOR, dependencyPlan, openApiGenerate, prepareProject, tscBuild } from "./fixtures/openapi-project.js";
import { NODE, REPO, interleave, median, ms, run, tempDir, type Row } from "./util.js";

const KERVAN = join(REPO, "bin/kervan.mjs");
const RUN_TS = join(REPO, "bin/run-ts.mjs");

export interface GenerateBenchOptions {
  sizes?: number[];
  /** Interleaved rounds per size (default 3, and 2 for sizes over 500). */
  rounds?: (n: number) => number;
  /** Stage profile of the largest size: when it misses its target (auto), always or never. */
  profile?: "auto" | "always" | "never";
}

export interface GenerateBenchResult {
  rows: Row[];
  notes: string[];
  profile?: string[];
}

async function kervanGen(spec: string, out: string): Promise<string> {
  const { stderr } = await run(NODE, [KERVAN, "gen", spec, "--out", out], { cwd: REPO });
  return stderr;
}

export async function benchGenerate(o: GenerateBenchOptions = {}): Promise<GenerateBenchResult> {
  const sizes = o.sizes ?? [10, 100, 1000];
  const roundsFor = o.rounds ?? ((n: number) => (n > 500 ? 2 : 3));
  const root = tempDir("gen");
  const withBaseline = existsSync(OPENAPI_MCP_GENERATOR);
  const deps = dependencyPlan();
  let fresh = 0;
  const freshDir = (what: string) => join(root, `${what}-${++fresh}`);
  const specOf = (n: number) => join(root, `bench-${n}.yaml`);
  const docOf = (n: number) => join(root, `bench-${n}.openapi.json`);
  for (const n of sizes) {
    writeFileSync(specOf(n), execSpec(n));
    writeFileSync(docOf(n), JSON.stringify(openApiDoc(n), null, 2));
  }

  // openapi-mcp-generator's two steps, timed apart; preparing node_modules (our stand-in for
  // `npm install`) is left out.
  const omgSplit = new Map<number, Array<{ gen: number; tsc: number }>>();
  let tscErrors = 0;
  const baseline = async (n: number): Promise<number> => {
    const project = freshDir("omg");
    let t = performance.now();
    await openApiGenerate(docOf(n), project);
    const gen = performance.now() - t;
    prepareProject(project);
    t = performance.now();
    tscErrors = Math.max(tscErrors, await tscBuild(project));
    const tsc = performance.now() - t;
    if (!existsSync(join(project, "build", "index.js"))) throw new Error("tsc wrote no build/index.js for the openapi-mcp-generator project");
    omgSplit.set(n, [...(omgSplit.get(n) ?? []), { gen, tsc }]);
    rmSync(project, { recursive: true, force: true });
    return gen + tsc;
  };
  const lastOut = new Map<number, string>();
  const subject = async (n: number): Promise<void> => {
    const out = freshDir("kervan");
    const log = await kervanGen(specOf(n), out);
    if (!/ generated in /.test(log)) throw new Error(`kervan gen of ${n} tools did not generate:\n${log}`);
    const previous = lastOut.get(n);
    if (previous) rmSync(previous, { recursive: true, force: true });
    lastOut.set(n, out);
  };

  // Warm-up, untimed: tsx's compile cache for the generator, the file cache for both tools.
  await subject(sizes[0]!);
  if (withBaseline) await baseline(sizes[0]!);
  omgSplit.clear();

  const kervanMs = new Map<number, number>();
  const omgMs = new Map<number, number>();
  for (const n of sizes) {
    const subjects: Array<() => Promise<number | void>> = [() => subject(n)];
    if (withBaseline) subjects.push(() => baseline(n));
    const samples = await interleave(subjects, roundsFor(n), 0);
    kervanMs.set(n, median(samples[0]!));
    if (withBaseline) omgMs.set(n, median(samples[1]!));
    process.stderr.write(`bench:   ${n} tools: Kervan ${ms(kervanMs.get(n)!)}${withBaseline ? `, openapi-mcp-generator ${ms(omgMs.get(n)!)}` : ""}\n`);
  }

  // Re-run on the unchanged largest spec, against the CLI doing nothing (`kervan help`).
  const big = sizes[sizes.length - 1]!;
  // The cache key includes the generator's own sources (generator/fingerprint.ts): when they
  // change during the run (someone editing the tree), the first re-run rebuilds, and the next hits.
  let rebuilt = 0;
  const [rerunS, helpS] = await interleave(
    [
      async () => {
        for (let attempt = 0; attempt < 3; attempt++) {
          const t = performance.now();
          const log = await kervanGen(specOf(big), lastOut.get(big)!);
          if (/ unchanged in /.test(log)) return performance.now() - t;
          rebuilt++;
        }
        return NaN; // never a cache hit: the generator's sources kept changing; reported, not timed
      },
      async () => void (await run(NODE, [KERVAN, "help"], { cwd: REPO })),
    ],
    3,
    0,
  );
  const hits = rerunS!.filter((x) => Number.isFinite(x));
  const rerun = hits.length ? median(hits) : NaN;
  const help = median(helpS!);

  const section = "Generation + bundling (fresh `kervan gen` process, fresh out dir) vs openapi-mcp-generator gen + tsc";
  const rows: Row[] = [];
  for (const n of sizes) {
    const k = kervanMs.get(n)!;
    const b = omgMs.get(n);
    rows.push({
      section,
      name: `${n} tools: Kervan gen + bundle vs openapi-mcp-generator gen + tsc`,
      ratio: b === undefined ? NaN : k / b,
      target: n === big ? { op: "<", value: 1 } : undefined,
      subject: ms(k),
      baseline: b === undefined ? "not installed" : ms(b),
    });
  }
  // Near-linear growth: the marginal cost per tool between the two largest sizes against the
  // one between the two smallest (the fixed cost of a run cancels out of both).
  const marginal = (m: Map<number, number>, a: number, b: number) => (m.get(b)! - m.get(a)!) / (b - a);
  if (sizes.length >= 3) {
    const [s0, s1, s2] = [sizes[0]!, sizes[sizes.length - 2]!, big];
    const lo = marginal(kervanMs, s0, s1);
    const hi = marginal(kervanMs, s1, s2);
    rows.push({
      section,
      name: `growth: Kervan ms per added tool, ${s1}->${s2} vs ${s0}->${s1}`,
      ratio: hi / lo,
      target: { op: "≤", value: 1.25, note: "bench: near-linear" },
      subject: ms(hi),
      baseline: ms(lo),
    });
    if (withBaseline) {
      const blo = marginal(omgMs, s0, s1);
      const bhi = marginal(omgMs, s1, s2);
      rows.push({ section, name: `growth: openapi-mcp-generator ms per added op, ${s1}->${s2} vs ${s0}->${s1}`, ratio: bhi / blo, subject: ms(bhi), baseline: ms(blo) });
    }
  }
  // What an unchanged spec costs beyond starting the CLI at all (the cache's own work).
  const rerunWork = Math.max(0, rerun - help);
  rows.push({
    section,
    name: `re-run on the unchanged ${big}-tool spec, less CLI start, vs its fresh build`,
    ratio: rerunWork / kervanMs.get(big)!,
    target: { op: "<", value: 0.1, note: "bench: cache hit" },
    subject: ms(rerunWork),
    baseline: ms(kervanMs.get(big)!),
  });
  rows.push({ section, name: `re-run on the unchanged ${big}-tool spec vs \`kervan help\` (CLI start alone)`, ratio: rerun / help, subject: ms(rerun), baseline: ms(help) });

  const notes: string[] = [];
  const perTool = ["time per tool (median wall time of a whole run / tools; the fixed cost of a run dominates at 10):"];
  for (const n of sizes) {
    const split = omgSplit.get(n) ?? [];
    const g = median(split.map((s) => s.gen));
    const t = median(split.map((s) => s.tsc));
    perTool.push(
      `  ${String(n).padStart(5)}  Kervan ${ms(kervanMs.get(n)!).padStart(9)} = ${ms(kervanMs.get(n)! / n).padStart(9)}/tool` +
        (withBaseline ? `   openapi-mcp-generator ${ms(omgMs.get(n)!).padStart(9)} = ${ms(omgMs.get(n)! / n).padStart(9)}/op (gen ${ms(g)}, tsc ${ms(t)})` : ""),
    );
  }
  notes.push(perTool.join("\n"));
  notes.push(`rounds: ${sizes.map((n) => `${n}: ${roundsFor(n)}`).join(", ")} (interleaved, alternating which goes first, after one untimed warm-up of each); re-run: 3 rounds.`);
  if (rebuilt)
    notes.push(
      `re-run: ${rebuilt} re-run(s) rebuilt instead of hitting the cache because the generator's own sources (part of the input hash) changed during the bench` +
        (hits.length ? `; only the ${hits.length} cache hit(s) were timed.` : "; no re-run hit the cache, so there is no re-run ratio."),
    );
  if (!withBaseline) notes.push("openapi-mcp-generator is not installed: no baseline, no ratio for generation.");
  else
    notes.push(
      `openapi-mcp-generator baseline: its CLI on an equivalent OpenAPI 3 document (one GET per tool, the same fields as required query strings), then tsc -p on the project it wrote. ` +
        `Its imports resolve to our node_modules (${deps.linked.join(", ")})` +
        (deps.stubbed.length ? `; ${deps.stubbed.join(" and ")} ${deps.stubbed.length > 1 ? "are" : "is"} not installed here, so minimal typed stubs stand in, which makes tsc's job smaller than with the real packages (the ratio errs in the baseline's favour).` : ".") +
        (deps.missing.length ? ` Missing entirely: ${deps.missing.join(", ")}.` : "") +
        (tscErrors ? ` tsc reported ${tscErrors} errors (it still emitted build/index.js).` : " tsc built it without errors."),
    );

  const result: GenerateBenchResult = { rows, notes };
  const bigRatio = rows[sizes.length - 1]!.ratio;
  const mode = o.profile ?? "auto";
  if (mode === "always" || (mode === "auto" && !(bigRatio < 1))) {
    process.stderr.write(`bench:   profiling the stages of one ${big}-tool build\n`);
    const { stdout } = await run(NODE, [RUN_TS, join(REPO, "test/bench/generate.bench.ts"), "--profile", specOf(big)], { cwd: REPO });
    result.profile = formatProfile(JSON.parse(stdout) as Array<[string, number]>, big);
  }
  return result;
}

function formatProfile(stages: Array<[string, number]>, n: number): string[] {
  const total = stages.reduce((s, [, t]) => s + t, 0);
  const width = Math.max(...stages.map(([name]) => name.length));
  return [
    `Where the time goes: one in-process build of ${n} tools in a fresh process, stage by stage as buildServer() runs them (total ${ms(total)}):`,
    ...stages.map(([name, t]) => `  ${name.padEnd(width)}  ${ms(t).padStart(9)}  ${((t / total) * 100).toFixed(1).padStart(5)}%  ${"#".repeat(Math.round((t / total) * 40))}`),
  ];
}

type Fn = (...args: never[]) => unknown;
const fn = (mod: Record<string, unknown>, name: string): Fn | undefined => (typeof mod[name] === "function" ? (mod[name] as Fn) : undefined);

/**
 * One build of `spec` in the stage order of generator/pipeline.ts, each stage timed; module loading
 * is a stage of its own. The emitters of generator/emit/index.ts are timed one by one while they
 * are the ones this knows; otherwise emitServer() is one stage. Prints [stage, ms][] as JSON.
 */
async function profile(spec: string): Promise<void> {
  const stages: Array<[string, number]> = [];
  const time = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
    const t = performance.now();
    const value = await f();
    stages.push([name, performance.now() - t]);
    return value;
  };
  type Any = (...args: unknown[]) => any;
  const call = (f: Fn | undefined, ...args: unknown[]) => (f as unknown as Any)(...args);
  const [sourcesMod, pipeline, normalizeMod, planMod, lintMod] = (await time("import generator core", () =>
    Promise.all([import("../../generator/cli/sources.js"), import("../../generator/pipeline.js"), import("../../generator/normalize.js"), import("../../generator/plan.js"), import("../../generator/lint/index.js").catch(() => ({}))]),
  )) as Array<Record<string, unknown>>;
  const sources = await time("read spec", () => call(fn(sourcesMod!, "readSources"), [spec]));
  const { diagnostics, specs } = await time("load + check", () => call(fn(pipeline!, "checkSources"), sources));
  if ((diagnostics as Array<{ severity: string }>).some((d) => d.severity === "error")) throw new Error(`spec has errors: ${JSON.stringify(diagnostics[0])}`);
  const servers = await time("normalize", () => call(fn(normalizeMod!, "normalize"), specs, diagnostics));
  const lint = fn(lintMod!, "lint");
  if (lint) await time("lint", () => call(lint, specs, servers));
  const p = await time("plan", () => call(fn(planMod!, "plan"), servers).servers[0]);
  const [entryM, moduleM, typesM, validatorsM, indexM, bundleM, manifestM, writeM] = (await time("import emit + bundle modules (json-schema-to-typescript, prettier, esbuild, ajv)", () =>
    Promise.all([
      import("../../generator/emit/entry.js"),
      import("../../generator/emit/tool-module.js"),
      import("../../generator/emit/types.js"),
      import("../../generator/emit/validators.js"),
      import("../../generator/emit/index.js"),
      import("../../generator/bundle.js"),
      import("../../generator/manifest.js"),
      import("../../generator/write.js"),
    ]),
  )) as Array<Record<string, unknown>>;
  const [emitEntry, emitToolModule, emitTypes, emitValidators] = [fn(entryM!, "emitEntry"), fn(moduleM!, "emitToolModule"), fn(typesM!, "emitTypes"), fn(validatorsM!, "emitValidators")];
  type File = { path: string; contents: string };
  let files: File[];
  if (emitEntry && emitToolModule && emitTypes && emitValidators) {
    const entry = await time("emit src/server.ts", () => call(emitEntry, p));
    const modules = await time("emit src/tools/*.ts", () => (p.tools as unknown[]).map((t) => call(emitToolModule, p, t)));
    const types = await time("emit src/types.ts (json-schema-to-typescript + prettier)", () => call(emitTypes, p));
    const validators = await time("emit src/validators.mjs (ajv standalone)", () => call(emitValidators, p));
    files = [entry, ...modules, types, validators];
  } else files = await time("emit (emitServer)", () => call(fn(indexM!, "emitServer"), p));
  const bundle = await time("bundle server.mjs (esbuild)", () => call(fn(bundleM!, "bundleServer"), p, files));
  const manifestFn = fn(manifestM!, "buildManifestAndAudit") ?? fn(manifestM!, "buildManifest");
  const manifest = await time("manifest + audit", () => call(manifestFn, p, files, bundle));
  const out = tempDir("profile");
  const all = [...files, { path: bundle.path, contents: bundle.contents }, ...(Array.isArray(manifest) ? manifest : [manifest])];
  await time("write", () => call(fn(writeM!, "write"), out, all, [p.dir], { check: false, pruneServers: false }));
  rmSync(out, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(stages) + "\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const i = process.argv.indexOf("--profile");
  if (i > 0 && process.argv[i + 1]) await profile(process.argv[i + 1]!);
  else {
    const r = await benchGenerate({ profile: "always" });
    const { table } = await import("./util.js");
    console.log(table(r.rows));
    console.log(["", ...r.notes, "", ...(r.profile ?? [])].join("\n"));
  }
}
