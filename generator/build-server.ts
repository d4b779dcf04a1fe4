// The per-server stages: emit -> bundle -> manifest + audit, for every server of the plan. The
// overlap lives here: the bundle starts once the validators are compiled, while the types may still
// be emitted (emit/index.ts), and while esbuild finishes this thread writes the sources ahead
// (write-staging.ts) and works out what the manifest takes from them.
import type { Diagnostic } from "./model/diagnostic.js";
import type { EmittedFile } from "./model/output.js";
import type { EmitPlan, ServerPlan } from "./model/plan.js";
import type { LoadedSpec } from "./model/spec.js";
import type { Build } from "./shared/build.js";
import { SpecRefused } from "./shared/refusal.js";
import { at } from "./shared/locate.js";
import { reusable } from "./cache.js";
import { tokenCounts } from "./catalog/listing.js";
import type { Staging } from "./write-staging.js";

export type Timer = ((stage: string, ms: number) => void) | undefined;

export interface ServersOptions {
  /** The output root whose unchanged servers are reused; none for --check. */
  outRoot: string | undefined;
  timer: Timer;
  staging: Staging | undefined;
  /** Called as a server's emit and its bundle start. */
  onStage?: (stage: "emit" | "bundle", server: ServerPlan, done: number) => void;
  /** Called once per server with its time, for the progress line. */
  progress?: (server: string, ms: number, cached: boolean) => void;
}

/**
 * Every server's files; or, when the emit refuses a spec, the diagnostic that says why. The tool
 * schemas the check presumed to compile (shared/schema-compiler.ts) are proved or judged before
 * any server is reported built: one that fails throws UnprovenSchemas.
 */
export async function buildServers(emitPlan: EmitPlan, specs: LoadedSpec[], build: Build, o: ServersOptions): Promise<{ files: EmittedFile[] } | { refused: Diagnostic }> {
  const files: EmittedFile[] = [];
  const built: Array<{ name: string; ms: number; cached: boolean }> = [];
  for (const [done, p] of emitPlan.servers.entries()) {
    const started = performance.now();
    try {
      const server = await buildServer(p, build, o, (stage) => o.onStage?.(stage, p, done));
      files.push(...server.files);
      built.push({ name: p.server.name, ms: performance.now() - started, cached: server.cached });
    } catch (e) {
      // Any other failure with presumptions open is answered by the pipeline's second build.
      if (!(e instanceof SpecRefused)) throw e;
      const spec = specs.find((s) => s.file === e.file);
      if (!spec) throw e;
      // A refusal is the answer only when no presumed schema fails instead.
      await build.schemas.settle(build.pool);
      return { refused: at(spec, e.code, e.message, e.pointer) };
    }
  }
  await build.schemas.settle(build.pool);
  for (const b of built) o.progress?.(b.name, b.ms, b.cached);
  return { files };
}

/** Emits and bundles one server, or reuses the previous output when its input hash is unchanged. */
export async function buildServer(p: ServerPlan, build: Build, o: ServersOptions, onStage?: (stage: "emit" | "bundle") => void): Promise<{ files: EmittedFile[]; cached: boolean }> {
  const timer = o.timer;
  const previous = o.outRoot ? timed(`cache ${p.dir}`, timer, () => reusable(o.outRoot!, p)) : undefined;
  if (previous) return { files: previous, cached: true };
  // The manifest's token counts, on a worker. A small server's start now: its validators compile on
  // this thread, and the tokenizer's load (about half a second) is the longest part of its build.
  const early = build.pool.offThread(p.tools.length) ? undefined : tokenCounts(p.server, build.pool);
  // Loaded on first use: json-schema-to-typescript and esbuild cost time to load, and a
  // spec with errors never needs them.
  const [{ startEmit }, { bundleServer }, { prepareManifestAndAudit }] = await Promise.all([import("./emit/index.js"), import("./bundle.js"), import("./manifest.js")]);
  onStage?.("emit");
  const emitStarted = performance.now();
  const emission = startEmit(p, build);
  // A large server's once the validators are compiled on a worker: the tokenizer's load would slow
  // the compile the emit waits for.
  const counting = early ?? emission.validators.then(() => tokenCounts(p.server, build.pool));
  // The bundle starts once the validators are compiled (the types may still be under way): esbuild's
  // threads would otherwise take the cores the compile needs, and the emit waits for the compile.
  const bundling = emission.validators.then(() => bundleServer(p, emission.files, build.pool));
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
  const staged = o.staging?.stage(files);
  const count = await counting;
  const manifestStarted = performance.now();
  const finishManifest = prepareManifestAndAudit(p, files, count);
  const manifestPrepared = performance.now() - manifestStarted;
  // The time the bundle takes beyond the emit.
  const bundle = await timed(`bundle ${p.dir}`, timer, () => bundling);
  await staged;
  const manifestAndAudit = timed(`manifest + audit ${p.dir}`, timer && ((name, ms) => timer(name, ms + manifestPrepared)), () => finishManifest(bundle));
  return { files: [...files, { path: bundle.path, contents: bundle.contents }, ...(bundle.chunks ?? []), ...manifestAndAudit], cached: false };
}

/** Runs one stage, reporting its time when asked (`--verbose`). */
export function timed<T>(name: string, timer: Timer, run: () => T): T {
  if (!timer) return run();
  const started = performance.now();
  const stop = () => timer(name, performance.now() - started);
  const result = run();
  // A promise's time is reported as it settles (before its awaiting caller goes on: stop is its first callback).
  if (result instanceof Promise) result.then(stop, stop);
  else stop();
  return result;
}
