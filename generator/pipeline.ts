// The only file that knows the stage order:
// load -> check -> normalize -> lint -> plan -> emit -> bundle -> manifest + audit -> write.
// (Bundling runs on the emitted sources in memory, before write, so `--check` compares the bundle too.)
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Diagnostic } from "./model/diagnostic.js";
import type { EmittedFile, WriteReport } from "./model/output.js";
import type { SourceFile } from "./model/spec.js";
import type { ServerPlan } from "./model/plan.js";
import { load } from "./load.js";
import { sha256 } from "./shared/hash.js";
import { check } from "./check/index.js";
import { normalize } from "./normalize.js";
import { plan } from "./plan.js";
import { cachedOutputs, generatedManifests, reusable, sourceHash } from "./manifest.js";
import { write } from "./write.js";
import { lint, strict as strictLint } from "./lint/index.js";

export interface GenerateOptions {
  outRoot: string;
  check: boolean;
  pruneServers: boolean;
  /** Every warning becomes an error: nothing is written when any is found. */
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
  // Loaded on first use: ts-morph, json-schema-to-typescript and esbuild cost half a second, and a
  // spec with errors never needs them.
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

type Cached = { name: string; files: EmittedFile[] };

/**
 * When every spec (and each file it includes) and the generator are unchanged and every output is
 * intact, the previous run's files stand as they are: nothing is parsed, checked, linted, emitted
 * or bundled. Found by content hashes alone, through the manifests under the output root.
 * (Warnings were printed by the run that built them.)
 */
function unchanged(sources: SourceFile[], outRoot: string): Cached[] | undefined {
  const manifests = generatedManifests(outRoot);
  const found: Cached[] = [];
  for (const source of sources) {
    const hash = sha256(source.text);
    const match = manifests.find((m) => m.manifest.inputs?.[source.path] === hash);
    const inputs = match?.manifest.inputs;
    const name = match?.manifest.server?.name;
    if (!match || !inputs || name !== match.dir || found.some((f) => f.name === name)) return undefined;
    // Included schema files are named relative to the spec's folder; they must hash the same today.
    for (const [path, h] of Object.entries(inputs)) {
      if (path === source.path) continue;
      try {
        if (sha256(readFileSync(join(dirname(source.path), path), "utf8")) !== h) return undefined;
      } catch {
        return undefined;
      }
    }
    if (match.manifest.sourceHash !== sourceHash(inputs)) return undefined;
    const files = cachedOutputs(outRoot, match);
    if (!files) return undefined;
    found.push({ name, files });
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : 1));
}

export async function generate(sources: SourceFile[], options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  // --check proves the checked-in bytes from scratch, and --strict must see every warning again.
  if (!options.check && !options.strict) {
    const cached = unchanged(sources, options.outRoot);
    if (cached) {
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
  const emitPlan = plan(servers);
  const files: EmittedFile[] = [];
  for (const p of emitPlan.servers) {
    const serverStarted = performance.now();
    const built = await buildServer(p, options.check ? undefined : options.outRoot);
    files.push(...built.files);
    options.progress?.(p.server.name, performance.now() - serverStarted, built.cached);
  }
  const names = emitPlan.servers.map((p) => p.dir);
  const report = write(options.outRoot, files, names, { check: options.check, pruneServers: options.pruneServers });
  return { diagnostics: warnings, report, servers: names };
}
