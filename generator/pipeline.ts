// The only file that knows the stage order:
// load -> check -> normalize -> lint -> plan -> emit -> bundle -> write.
// (Bundling runs on the emitted sources in memory, before write, so `--check` compares the bundle too.)
import type { Diagnostic } from "./model/diagnostic.js";
import type { EmittedFile, WriteReport } from "./model/output.js";
import type { SourceFile } from "./model/spec.js";
import type { ServerPlan } from "./model/plan.js";
import { load } from "./load.js";
import { check } from "./check/index.js";
import { normalize, specInputs } from "./normalize.js";
import { plan } from "./plan.js";
import { cachedOutputs, reusable, sourceHash } from "./manifest.js";
import type { LoadedSpec } from "./model/spec.js";
import { write } from "./write.js";
import { lint, strict as strictLint } from "./lint/index.js";

export interface GenerateOptions {
  outRoot: string;
  check: boolean;
  pruneServers: boolean;
  /** Lint warnings become errors: nothing is written when any is found. */
  strict?: boolean;
  /** Called once per server with its time, for the progress line. */
  progress?: (server: string, ms: number, cached: boolean) => void;
}

export interface GenerateResult {
  diagnostics: Diagnostic[];
  report?: WriteReport;
  servers: string[];
}

/** Emits and bundles one server, or reuses the previous output when its input hash is unchanged. */
export async function buildServer(p: ServerPlan, outRoot: string | undefined): Promise<{ files: EmittedFile[]; cached: boolean }> {
  const previous = outRoot ? reusable(outRoot, p) : undefined;
  if (previous) return { files: previous, cached: true };
  // Loaded on first use: ts-morph, prettier and esbuild cost a second, and a spec with errors never needs them.
  const [{ emitServer }, { bundleServer }, { buildManifestAndAudit }] = await Promise.all([import("./emit/index.js"), import("./bundle.js"), import("./manifest.js")]);
  const files = await emitServer(p);
  const bundle = await bundleServer(p, files);
  const manifestAndAudit = buildManifestAndAudit(p, files, bundle);
  return { files: [...files, { path: bundle.path, contents: bundle.contents }, ...manifestAndAudit], cached: false };
}

export function checkSources(sources: SourceFile[]): { diagnostics: Diagnostic[]; specs: ReturnType<typeof load> } {
  const diagnostics: Diagnostic[] = [];
  const specs = load(sources, diagnostics);
  diagnostics.push(...check(specs));
  return { diagnostics, specs };
}

/**
 * When every spec and the generator are unchanged and every output is intact, the previous run's
 * files stand as they are: no check, lint, emit or bundle runs. (Warnings were printed then.)
 */
function unchanged(specs: LoadedSpec[], outRoot: string): { name: string; files: EmittedFile[] }[] | undefined {
  const found: { name: string; files: EmittedFile[] }[] = [];
  for (const spec of specs) {
    const name = (spec.doc as { server?: { name?: unknown } } | undefined)?.server?.name;
    if (typeof name !== "string" || !/^[a-z0-9][a-z0-9._-]*$/.test(name) || found.some((f) => f.name === name)) return undefined;
    const hash = sourceHash(specInputs(spec));
    const files = cachedOutputs(outRoot, name, (m) => m.sourceHash === hash && m.server?.name === name);
    if (!files) return undefined;
    found.push({ name, files });
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : 1));
}

export async function generate(sources: SourceFile[], options: GenerateOptions): Promise<GenerateResult> {
  if (!options.check && !options.strict) {
    const loadDiagnostics: Diagnostic[] = [];
    const started = performance.now();
    const cached = unchanged(load(sources, loadDiagnostics), options.outRoot);
    if (cached && !loadDiagnostics.length) {
      for (const c of cached) options.progress?.(c.name, performance.now() - started, true);
      const names = cached.map((c) => c.name);
      const report = write(options.outRoot, cached.flatMap((c) => c.files), names, { check: false, pruneServers: options.pruneServers });
      return { diagnostics: [], report, servers: names };
    }
  }
  const { diagnostics, specs } = checkSources(sources);
  if (diagnostics.some((d) => d.severity === "error")) return { diagnostics, servers: [] };
  const servers = normalize(specs, diagnostics);
  const warnings = [...diagnostics.filter((d) => d.severity === "warning"), ...lint(specs, servers)];
  // --strict holds every warning, the check stage's too, to the bar of an error.
  if (options.strict && warnings.length) return { diagnostics: strictLint(warnings), servers: [] };
  diagnostics.splice(0, diagnostics.length, ...warnings);
  const emitPlan = plan(servers);
  const files: EmittedFile[] = [];
  for (const p of emitPlan.servers) {
    const started = performance.now();
    // --check regenerates from scratch: it must prove the checked-in bytes, not trust them.
    const built = await buildServer(p, options.check ? undefined : options.outRoot);
    files.push(...built.files);
    options.progress?.(p.server.name, performance.now() - started, built.cached);
  }
  const names = emitPlan.servers.map((p) => p.dir);
  const report = write(options.outRoot, files, names, { check: options.check, pruneServers: options.pruneServers });
  return { diagnostics, report, servers: names };
}
