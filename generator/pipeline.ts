// The only file that knows the stage order:
// load -> check -> normalize -> lint -> plan -> emit + bundle + manifest/audit (build-server.ts) -> write.
// Each build owns its state (shared/build.ts): its schema compiler, its worker pool, its
// diagnostics; generate() opens one and closes it, whatever the way out. Under `--verbose` each
// stage reports its name and time.
import type { Diagnostic } from "./model/diagnostic.js";
import type { WriteReport } from "./model/output.js";
import type { SourceFile } from "./model/spec.js";
import { createBuild, type Build } from "./shared/build.js";
import { UnprovenSchemas } from "./shared/schema-compiler.js";
import { load } from "./load.js";
import { check, checkStage } from "./check/index.js";
import { toolChangelog, toolsManifest, type ToolChangelog } from "./manifest.js";
import { normalize } from "./normalize.js";
import { lint, strict as strictLint } from "./lint/index.js";
import { plan, planServer } from "./plan.js";
import { buildServers, timed, type Timer } from "./build-server.js";
import { write } from "./write.js";
import { Staging } from "./write-staging.js";
import { unchanged } from "./cache.js";

export interface GenerateOptions {
  outRoot: string;
  check: boolean;
  pruneServers: boolean;
  /** Every warning becomes an error: nothing is written when any is found. */
  strict?: boolean;
  /** Called once per server with its time, for the progress line. */
  progress?: (server: string, ms: number, cached: boolean) => void;
  /** Called after each stage with its name (and server, for per-server stages) and time (`--verbose`). */
  stageTime?: (stage: string, ms: number) => void;
  /** Called as each stage starts, for a progress display. */
  stage?: (event: StageEvent) => void;
}

export interface StageEvent {
  stage: "check" | "lint" | "emit" | "bundle" | "write";
  /** The server being built (emit and bundle). */
  server?: string;
  /** Servers finished and in all; tools in all. */
  done: number;
  total: number;
  tools: number;
}

export interface GenerateResult {
  diagnostics: Diagnostic[];
  report?: WriteReport;
  servers: string[];
}

/** A new build: its off-thread jobs run on build-thread.ts. The caller closes it. */
export function openBuild(options: { offThread?: number } = {}): Build {
  return createBuild(new URL("./build-thread.ts", import.meta.url), options.offThread);
}

/** Load and check on this thread, for commands that read a spec without building it. */
export function checkSources(sources: SourceFile[], timer?: Timer): { diagnostics: Diagnostic[]; specs: ReturnType<typeof load> } {
  const diagnostics: Diagnostic[] = [];
  const specs = timed("load", timer, () => load(sources, diagnostics));
  diagnostics.push(...timed("check", timer, () => check(specs)));
  return { diagnostics, specs };
}

/** `kervan import`'s check over specs held in memory, judged by the build's compiler, and the schemas it compiles. */
export { checkStage, compileCandidate } from "./check/index.js";
export type { ToolChangelog } from "./manifest.js";

/**
 * The tool-level changelog between two texts of one spec, from the manifests they would record
 * (load, check, normalize, plan and manifest; no emit or bundle), or the first error of a text
 * that does not build.
 */
export function specChangelog(path: string, texts: { before: string; after: string }, labels: { from: string; to: string }): ToolChangelog | { error: Diagnostic } {
  const before = toolsManifestOf({ path, text: texts.before });
  if ("error" in before) return before;
  const after = toolsManifestOf({ path, text: texts.after });
  if ("error" in after) return after;
  return toolChangelog(before.manifest, after.manifest, labels);
}

function toolsManifestOf(source: SourceFile): { manifest: ReturnType<typeof toolsManifest> } | { error: Diagnostic } {
  const { diagnostics, specs } = checkSources([source]);
  const error = diagnostics.find((d) => d.severity === "error");
  if (error) return { error };
  const [server] = normalize(specs, []);
  return { manifest: toolsManifest(planServer(server, { outRoot: "out" })) };
}

export async function generate(sources: SourceFile[], options: GenerateOptions): Promise<GenerateResult> {
  // --check proves the checked-in bytes from scratch, and --strict must see every warning again.
  const cached = options.check || options.strict ? undefined : reuse(sources, options);
  if (cached) return cached;
  // A large spec's tool schemas are compiled once, by the emit, on the presumption that they
  // compile (shared/schema-compiler.ts; --strict, which may stop before the emit, judges them in
  // the check). Should one not compile, or the build fail in any other way meanwhile, it runs again
  // judging each in the check: its report is the check's, whole, or the same failure again.
  try {
    return await attempt(sources, options, !options.strict);
  } catch (e) {
    if (!(e instanceof UnprovenSchemas)) throw e;
    return attempt(sources, options, false);
  }
}

async function attempt(sources: SourceFile[], options: GenerateOptions, emitProves: boolean): Promise<GenerateResult> {
  const b = openBuild();
  // Nothing is staged for --check, which writes nothing.
  const staging = options.check ? undefined : new Staging(options.outRoot);
  try {
    return await build(sources, options, b, staging, emitProves);
  } catch (e) {
    throw b.schemas.everPresumed && !(e instanceof UnprovenSchemas) ? new UnprovenSchemas({ cause: e }) : e;
  } finally {
    staging?.discard();
    b.close();
  }
}

/** Every server unchanged since the last run: its files as they are. */
function reuse(sources: SourceFile[], options: GenerateOptions): GenerateResult | undefined {
  const started = performance.now();
  const cached = timed("cache", options.stageTime, () => unchanged(sources, options.outRoot));
  if (!cached) return undefined;
  for (const c of cached) options.progress?.(c.name, performance.now() - started, true);
  const names = cached.map((c) => c.name);
  const report = timed("write", options.stageTime, () => write(options.outRoot, cached.flatMap((c) => c.files), names, { check: false, pruneServers: options.pruneServers }));
  return { diagnostics: [], report, servers: names };
}

async function build(sources: SourceFile[], options: GenerateOptions, b: Build, staging: Staging | undefined, emitProves: boolean): Promise<GenerateResult> {
  const timer = options.stageTime;
  const at = (stage: StageEvent["stage"], done = 0, total = sources.length, tools = 0) => options.stage?.({ stage, done, total, tools });
  at("check");
  const specs = timed("load", timer, () => load(sources, b.diagnostics));
  b.diagnostics.push(...(await timed("check", timer, () => checkStage(specs, b, { emitProves }))));
  if (b.diagnostics.some((d) => d.severity === "error")) return { diagnostics: b.diagnostics, servers: [] };
  const servers = timed("normalize", timer, () => normalize(specs, b.diagnostics));
  const tools = servers.reduce((n, s) => n + s.tools.length, 0);
  at("lint", 0, servers.length, tools);
  b.diagnostics.push(...timed("lint", timer, () => lint(specs, servers)));
  // --strict holds every warning, the check stage's too, to the bar of an error.
  if (options.strict && b.diagnostics.length) return { diagnostics: strictLint(b.diagnostics), servers: [] };
  const emitPlan = timed("plan", timer, () => plan(servers, { outRoot: options.outRoot }));
  const onStage = (stage: "emit" | "bundle", p: { server: { name: string } }, done: number) => options.stage?.({ stage, server: p.server.name, done, total: emitPlan.servers.length, tools });
  const built = await buildServers(emitPlan, specs, b, { outRoot: options.check ? undefined : options.outRoot, timer, staging, onStage, progress: options.progress });
  if ("refused" in built) return { diagnostics: [...b.diagnostics, built.refused], servers: [] };
  const names = emitPlan.servers.map((p) => p.dir);
  at("write", names.length, names.length, tools);
  const report = timed("write", timer, () => write(options.outRoot, built.files, names, { check: options.check, pruneServers: options.pruneServers, staging }));
  return { diagnostics: b.diagnostics, report, servers: names };
}
