// out/<server>/kervan.manifest.json: what went in (input hashes, generator version) and what came
// out (output hashes), plus the audit facts AUDIT.md is rendered from (generator/audit/). The cache
// (cache.ts) reads these: an unchanged input hash with intact outputs means no work.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { EmittedFile, BundleResult } from "./model/output.js";
import type { ServerPlan } from "./model/plan.js";
import { sha256 } from "./shared/hash.js";
import { generatorFingerprint } from "./fingerprint.js";
import { PACKAGE_ROOT } from "./paths.js";
import { byCodeUnit } from "./shared/order.js";
import { toJson } from "./shared/object.js";
import { manifestPrompts, manifestTools, serverCapabilities } from "./audit/build.js";
import { manifestResources } from "./audit/resources.js";
import { manifestResourceTemplates, promptCompletions } from "./audit/resource-templates.js";
import type { Json } from "../templates/runtime/types.js";
import { renderAudit, AUDIT } from "./audit/render.js";
import type { Manifest } from "./audit/types.js";
import type { Changelog } from "./audit/change.js";
import { changelog } from "./audit/changelog.js";
import { renderChangelog } from "./audit/changelog-render.js";
import { listingOf, type Counter } from "./catalog/listing.js";
import { codeFacts } from "./catalog/code-facts.js";

export const MANIFEST = "kervan.manifest.json";

export function generatorVersion(): string {
  return JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")).version;
}

/** Hash of the generator and the input files alone: known right after load, before any check. */
export function sourceHash(inputs: Record<string, string>): string {
  return sha256(JSON.stringify({ fingerprint: generatorFingerprint(), inputs }));
}

/** Hash of everything that decides a server's output. */
export function inputHash(plan: ServerPlan): string {
  return sha256(JSON.stringify({ fingerprint: generatorFingerprint(), server: plan.server }));
}

/** The manifest and AUDIT.md; AUDIT.md is rendered from the manifest's own data and listed in its outputs. */
export function buildManifestAndAudit(plan: ServerPlan, files: EmittedFile[], bundle: BundleResult): [EmittedFile, EmittedFile] {
  return prepareManifestAndAudit(plan, files)(bundle);
}

/**
 * buildManifestAndAudit in two steps: what the emitted sources decide, computed while the bundle
 * is still being made (pipeline.ts), then the rest once the bundle is there.
 */
export function prepareManifestAndAudit(plan: ServerPlan, files: EmittedFile[], count?: Counter): (bundle: BundleResult) => [EmittedFile, EmittedFile] {
  const tools = manifestTools(plan, count);
  const prompts = manifestPrompts(plan);
  const resources = manifestResources(plan);
  const templates = manifestResourceTemplates(plan, tools);
  const completions = promptCompletions(plan);
  const server: Manifest["server"] = {
    name: plan.server.name,
    version: plan.server.version,
    ...(plan.server.title !== undefined ? { title: plan.server.title } : {}),
    ...(plan.server.instructions !== undefined ? { instructions: plan.server.instructions } : {}),
    ...(plan.server.http !== undefined ? { http: toJson(plan.server.http) } : {}),
    ...(plan.server.telemetry !== undefined ? { telemetry: plan.server.telemetry } : {}),
    ...(plan.server.tasks !== undefined ? { tasks: { ...plan.server.tasks } } : {}),
    ...(plan.server.exposure !== undefined ? { exposure: plan.server.exposure } : {}),
    ...(plan.server.budget !== undefined ? { budget: plan.server.budget } : {}),
    ...(plan.server.code !== undefined ? { code: codeFacts(plan.server) } : {}),
  };
  const listing = listingOf(plan.server, count);
  const hashes = { sourceHash: sourceHash(plan.server.inputs), inputHash: inputHash(plan) };
  const capabilities = serverCapabilities(tools, plan.server);
  const sourceOutputs = new Map(files.map((f) => [f.path, sha256(f.contents)]));
  return (bundle) => {
    const data: Manifest = {
      generator: { name: "kervan", version: generatorVersion() },
      server,
      inputs: plan.server.inputs,
      ...hashes,
      capabilities,
      listing,
      tools,
      ...(prompts ? { prompts } : {}),
      ...(resources ? { resources } : {}),
      ...(templates ? { resourceTemplates: templates } : {}),
      ...(completions ? { promptCompletions: completions } : {}),
      bundle: { path: "server.mjs", sha256: sha256(bundle.contents), ...(bundle.chunks ? { chunks: chunkHashes(plan.dir, bundle.chunks) } : {}), packages: bundle.packages },
    };
    const audit: EmittedFile = { path: `${plan.dir}/${AUDIT}`, contents: renderAudit(data, plan.server.origin.file) };
    const outputs: Record<string, string> = {};
    for (const f of [...files, { path: bundle.path, contents: bundle.contents }, ...(bundle.chunks ?? []), audit].sort((a, b) => byCodeUnit(a.path, b.path))) {
      outputs[f.path.slice(plan.dir.length + 1)] = sourceOutputs.get(f.path) ?? sha256(f.contents);
    }
    const manifest = { ...data, outputs };
    return [{ path: `${plan.dir}/${MANIFEST}`, contents: JSON.stringify(manifest, null, 2) + "\n" }, audit];
  };
}

/** A catalog's chunk files (bundle.ts): path in the server folder -> sha256, by path. */
function chunkHashes(dir: string, chunks: EmittedFile[]): Record<string, string> {
  return Object.fromEntries(chunks.map((c) => [c.path.slice(dir.length + 1), sha256(c.contents)]));
}

/** Server folders under an output root that a previous run generated (they hold a manifest), sorted. */
export function generatedServers(outRoot: string): string[] {
  if (!existsSync(outRoot)) return [];
  return readdirSync(outRoot, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(outRoot, e.name, MANIFEST)))
    .map((e) => e.name)
    .sort(byCodeUnit);
}

/** A generated server's manifest as stored: its folder, its text and its data. */
export interface StoredManifest {
  dir: string;
  text: string;
  manifest: Partial<Manifest> & { outputs?: Record<string, string> };
}

export function readManifest(outRoot: string, dir: string): StoredManifest | undefined {
  try {
    const text = readFileSync(join(outRoot, dir, MANIFEST), "utf8");
    return { dir, text, manifest: JSON.parse(text) };
  } catch {
    return undefined; // none, or damaged: then it is simply not reused
  }
}

/** The manifests of every server generated under an output root. */
export function generatedManifests(outRoot: string): StoredManifest[] {
  return generatedServers(outRoot).flatMap((dir) => readManifest(outRoot, dir) ?? []);
}

/** The manifest a planned server records of its tools and capabilities (no emit, bundle or hashes). */
export function toolsManifest(plan: ServerPlan): Manifest {
  const tools = manifestTools(plan);
  return {
    generator: { name: "kervan", version: "" },
    server: { name: plan.server.name, version: plan.server.version },
    inputs: {},
    sourceHash: "",
    inputHash: "",
    capabilities: serverCapabilities(tools, plan.server),
    tools,
    bundle: { path: "server.mjs", sha256: "", packages: {} },
  };
}

export interface ToolChangelog {
  log: Changelog;
  text: string;
  breaking: boolean;
}

/** The tool-level changelog between two manifests (generator/audit/changelog.ts), labelled and rendered. */
export function toolChangelog(before: Manifest, after: Manifest, labels: { from: string; to: string }): ToolChangelog {
  const log = changelog(before, after);
  log.server = before.server.name;
  log.from = labels.from;
  log.to = labels.to;
  return { log, text: renderChangelog(log), breaking: log.changes.some((c) => c.breaking) };
}
