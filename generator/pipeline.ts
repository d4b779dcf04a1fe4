// The only file that knows the stage order:
// load -> check -> normalize -> lint -> plan -> emit -> bundle -> manifest + audit -> write.
// (Bundling runs on the emitted sources in memory, before write, so `--check` compares the bundle too;
// it starts while the emit's long parts still run.)
// Under `--verbose` each stage reports its name and time.
import type { Diagnostic } from "./model/diagnostic.js";
import { SpecRefused } from "./shared/refusal.js";
import { at } from "./check/locate.js";
import type { EmittedFile, WriteReport } from "./model/output.js";
import type { SourceFile } from "./model/spec.js";
import type { ServerPlan } from "./model/plan.js";
import { load } from "./load.js";
import { check } from "./check/index.js";
import { normalize } from "./normalize.js";
import { plan } from "./plan.js";
import { write } from "./write.js";
import { Staging } from "./write-staging.js";
import { bundleSomewhere, prestartBundleWorker, stopSpareBundleWorker } from "./bundle-off-thread.js";
import { lint, strict as strictLint } from "./lint/index.js";
import { reusable, unchanged } from "./cache.js";
import { checkDeferred } from "./check/deferred-compile.js";
import { validatorsInput } from "./emit/validators.js";
import { dropEarlyValidators, prestartValidatorsWorker, startValidatorsEarly, stopSpareValidatorsWorker, validatorsWorkerWaiting } from "./emit/off-thread.js";
import { planServer } from "./plan.js";

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

type Timer = GenerateOptions["stageTime"];

/** Runs one stage, reporting its time when asked. */
function stage<T>(name: string, timer: Timer, run: () => T): T {
  if (!timer) return run();
  const started = performance.now();
  const result = run();
  if (result instanceof Promise) return result.finally(() => timer(name, performance.now() - started)) as T;
  timer(name, performance.now() - started);
  return result;
}

/** Emits and bundles one server, or reuses the previous output when its input hash is unchanged. */
export async function buildServer(
  p: ServerPlan,
  outRoot: string | undefined,
  timer?: Timer,
  onStage?: (stage: "emit" | "bundle") => void,
  staging?: Staging,
  /** Work of the caller's to do while the bundle finishes (the lint). */
  meanwhile?: () => void,
): Promise<{ files: EmittedFile[]; cached: boolean }> {
  const previous = outRoot ? stage(`cache ${p.dir}`, timer, () => reusable(outRoot, p)) : undefined;
  if (previous) return { files: previous, cached: true };
  // Loaded on first use: json-schema-to-typescript and esbuild cost time to load, and a
  // spec with errors never needs them.
  const [{ startEmit }, { bundleTarget }, { prepareManifestAndAudit }] = await Promise.all([import("./emit/index.js"), import("./bundle.js"), import("./manifest.js")]);
  onStage?.("emit");
  const emitStarted = performance.now();
  const emission = startEmit(p);
  // The bundle starts on the entry and the tool modules while the types and the validators are
  // still being emitted (emit/index.ts); it waits for what it imports. Its bytes are the same.
  const bundling = bundleSomewhere(bundleTarget(p), emission.files);
  bundling.catch(() => {}); // awaited below, after the emit: a failure meanwhile is no unhandled rejection
  let files: EmittedFile[];
  try {
    files = await emission.done;
  } catch (e) {
    // The emit's error is the one to report; the bundle, left waiting on it, fails too.
    await bundling.catch(() => {});
    throw e;
  }
  timer?.(`emit ${p.dir}`, performance.now() - emitStarted);
  onStage?.("bundle");
  // While esbuild finishes, this thread writes the sources ahead (write-staging.ts) and works out
  // what the manifest takes from them.
  const staged = staging?.stage(files);
  const manifestStarted = performance.now();
  const finishManifest = prepareManifestAndAudit(p, files);
  const manifestPrepared = performance.now() - manifestStarted;
  meanwhile?.();
  // The time the bundle takes beyond the emit.
  const bundle = await stage(`bundle ${p.dir}`, timer, () => bundling);
  await staged;
  const manifestAndAudit = stage(`manifest + audit ${p.dir}`, timer && ((name, ms) => timer(name, ms + manifestPrepared)), () => finishManifest(bundle));
  return { files: [...files, { path: bundle.path, contents: bundle.contents }, ...(bundle.chunks ?? []), ...manifestAndAudit], cached: false };
}

export function checkSources(sources: SourceFile[], timer?: Timer): { diagnostics: Diagnostic[]; specs: ReturnType<typeof load> } {
  const diagnostics: Diagnostic[] = [];
  const specs = stage("load", timer, () => load(sources, diagnostics));
  diagnostics.push(...stage("check", timer, () => check(specs)));
  return { diagnostics, specs };
}

export async function generate(sources: SourceFile[], options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  const timer = options.stageTime;
  // --check proves the checked-in bytes from scratch, and --strict must see every warning again.
  if (!options.check && !options.strict) {
    const cached = stage("cache", timer, () => unchanged(sources, options.outRoot));
    if (cached) {
      for (const c of cached) options.progress?.(c.name, performance.now() - started, true);
      const names = cached.map((c) => c.name);
      const report = stage("write", timer, () => write(options.outRoot, cached.flatMap((c) => c.files), names, { check: false, pruneServers: options.pruneServers }));
      return { diagnostics: [], report, servers: names };
    }
  }
  // A large spec's validators worker (emit/off-thread.ts) and bundle worker (bundle-off-thread.ts)
  // start now, so that their start-up overlaps the load; one not used by the end is stopped.
  const large = sources.reduce((n, s) => n + s.text.length, 0) >= PRESTART_TEXT;
  if (large) {
    prestartValidatorsWorker();
    prestartBundleWorker();
  }
  // Nothing is staged for --check, which writes nothing.
  const staging = options.check ? undefined : new Staging(options.outRoot);
  try {
    return await build(sources, options, started, staging);
  } finally {
    staging?.discard();
    dropEarlyValidators();
    stopSpareValidatorsWorker();
    stopSpareBundleWorker();
  }
}

/**
 * Starts a single server's validators from its spec before the check has judged it. The check and
 * the normalize never change the loaded data (test/generator/frozen-specs.test.ts), so what a
 * valid spec gives here is what it gives after the check; an invalid one may give anything or
 * throw, and its build stops at the check, dropping whatever started.
 */
function guessValidators(specs: ReturnType<typeof load>, outRoot: string): void {
  try {
    const servers = normalize(specs, []);
    if (servers.length === 1) startValidatorsEarly(validatorsInput(planServer(servers[0]!, { outRoot })));
  } catch {
    // Not a valid spec: the check says why.
  }
}

/** Spec text from which worker threads are started ahead of need (about two hundred tools). */
const PRESTART_TEXT = 512 * 1024;

async function build(sources: SourceFile[], options: GenerateOptions, started: number, staging: Staging | undefined): Promise<GenerateResult> {
  const timer = options.stageTime;
  options.stage?.({ stage: "check", done: 0, total: sources.length, tools: 0 });
  const diagnostics: Diagnostic[] = [];
  const specs = stage("load", timer, () => load(sources, diagnostics));
  const loaded = diagnostics.length;
  // A large spec's validators start compiling on the worker now, on a guess that the spec passes
  // the check (most do); the emit takes them only for the same input, and a build that stops drops them.
  if (specs.length === 1 && !loaded && validatorsWorkerWaiting()) guessValidators(specs, options.outRoot);
  // The emit compiles every tool schema anyway: the check presumes they compile, and each way out
  // below settles the presumptions first (check/deferred-compile.ts). Should one be wrong, the
  // answer is the check's on real judgements, as a build without the shortcut gives.
  const { diagnostics: checked, deferred } = stage("check", timer, () => checkDeferred(specs));
  diagnostics.push(...checked);
  const settled = async (): Promise<GenerateResult | undefined> =>
    (await deferred.settle(specs)) ? undefined : { diagnostics: [...diagnostics.slice(0, loaded), ...check(specs)], servers: [] };
  if (diagnostics.some((d) => d.severity === "error")) return (await settled()) ?? { diagnostics, servers: [] };
  const servers = stage("normalize", timer, () => normalize(specs, diagnostics));
  // Not started from a guess above: a large server's validators start compiling on the worker now,
  // while this thread lints and emits the rest; the emit takes them (emit/off-thread.ts) for the same input.
  if (servers.length === 1 && validatorsWorkerWaiting()) startValidatorsEarly(validatorsInput(planServer(servers[0]!, { outRoot: options.outRoot })));
  const tools = servers.reduce((n, s) => n + s.tools.length, 0);
  // The lint judges wording and shape and decides nothing the build makes: it runs while the first
  // server's bundle finishes (buildServer's `meanwhile`), when this thread would wait, unless
  // --strict needs its warnings first. Every way out below has its warnings.
  const checkWarnings = diagnostics.filter((d) => d.severity === "warning");
  let linted: Diagnostic[] | undefined;
  const runLint = (): void => {
    if (linted) return;
    options.stage?.({ stage: "lint", done: 0, total: servers.length, tools });
    linted = stage("lint", timer, () => lint(specs, servers));
  };
  const warnings = (): Diagnostic[] => {
    runLint();
    return [...checkWarnings, ...linted!];
  };
  // --strict holds every warning, the check stage's too, to the bar of an error.
  if (options.strict && warnings().length) return (await settled()) ?? { diagnostics: strictLint(warnings()), servers: [] };
  const emitPlan = stage("plan", timer, () => plan(servers, { outRoot: options.outRoot }));
  // Several servers: settled before the first is reported built. One: its emit proves most of them.
  if (emitPlan.servers.length !== 1) {
    const refused = await settled();
    if (refused) return refused;
  }
  const files: EmittedFile[] = [];
  for (const [done, p] of emitPlan.servers.entries()) {
    const serverStarted = performance.now();
    const onStage = (stage: "emit" | "bundle") => options.stage?.({ stage, server: p.server.name, done, total: emitPlan.servers.length, tools });
    let built: Awaited<ReturnType<typeof buildServer>>;
    try {
      built = await buildServer(p, options.check ? undefined : options.outRoot, timer, onStage, staging, runLint);
    } catch (e) {
      const refused = await settled();
      if (refused) return refused;
      const spec = e instanceof SpecRefused ? specs.find((s) => s.file === e.file) : undefined;
      if (!spec) throw e;
      const error = e as SpecRefused;
      return { diagnostics: [...warnings(), at(spec, error.code, error.message, error.pointer)], servers: [] };
    }
    if (!built.cached) deferred.proved(validatorsInput(p).schemas.map((s) => s.schema));
    const refused = await settled();
    if (refused) return refused;
    files.push(...built.files);
    options.progress?.(p.server.name, performance.now() - serverStarted, built.cached);
  }
  const names = emitPlan.servers.map((p) => p.dir);
  options.stage?.({ stage: "write", done: names.length, total: names.length, tools });
  const report = stage("write", timer, () => write(options.outRoot, files, names, { check: options.check, pruneServers: options.pruneServers, staging }));
  return { diagnostics: warnings(), report, servers: names };
}
