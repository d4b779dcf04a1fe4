// out/<server>/kervan.manifest.json: what went in (input hashes, generator version) and what came
// out (output hashes), plus the audit facts AUDIT.md is rendered from (generator/audit/). Also the cache: an unchanged input hash with intact outputs means no work.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { EmittedFile, BundleResult } from "./model/output.js";
import type { ServerPlan } from "./model/plan.js";
import { sha256 } from "./load.js";
import { generatorFingerprint } from "./fingerprint.js";
import { PACKAGE_ROOT } from "./paths.js";
import { byCodeUnit } from "./normalize.js";
import { manifestTools, serverCapabilities } from "./audit/build.js";
import { withLicenses } from "./audit/packages.js";
import { renderAudit, AUDIT } from "./audit/render.js";
import type { Manifest } from "./audit/types.js";

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
  const tools = manifestTools(plan);
  const data: Manifest = {
    generator: { name: "kervan", version: generatorVersion() },
    server: {
      name: plan.server.name,
      version: plan.server.version,
      ...(plan.server.title !== undefined ? { title: plan.server.title } : {}),
      ...(plan.server.instructions !== undefined ? { instructions: plan.server.instructions } : {}),
    },
    inputs: plan.server.inputs,
    sourceHash: sourceHash(plan.server.inputs),
    inputHash: inputHash(plan),
    capabilities: serverCapabilities(tools),
    tools,
    bundle: { path: "server.mjs", sha256: sha256(bundle.contents), packages: withLicenses(bundle.packages) },
  };
  const audit: EmittedFile = { path: `${plan.dir}/${AUDIT}`, contents: renderAudit(data, plan.server.origin.file) };
  const outputs: Record<string, string> = {};
  for (const f of [...files, { path: bundle.path, contents: bundle.contents }, audit].sort((a, b) => byCodeUnit(a.path, b.path))) {
    outputs[f.path.slice(plan.dir.length + 1)] = sha256(f.contents);
  }
  const manifest = { ...data, outputs };
  return [{ path: `${plan.dir}/${MANIFEST}`, contents: JSON.stringify(manifest, null, 2) + "\n" }, audit];
}

/** The files of a previous run that can be reused as they are, or undefined when anything differs. */
export function reusable(outRoot: string, plan: ServerPlan): EmittedFile[] | undefined {
  const hash = inputHash(plan);
  return cachedOutputs(outRoot, plan.dir, (m) => m.inputHash === hash);
}

/** A server folder's files when its manifest passes `matches` and every output still has its recorded hash. */
export function cachedOutputs(outRoot: string, dir: string, matches: (manifest: Partial<Manifest>) => boolean): EmittedFile[] | undefined {
  let manifest: Partial<Manifest> & { outputs?: Record<string, string> };
  let manifestText: string;
  try {
    manifestText = readFileSync(join(outRoot, dir, MANIFEST), "utf8");
    manifest = JSON.parse(manifestText);
  } catch {
    return undefined;
  }
  if (!matches(manifest) || !manifest.outputs) return undefined;
  const files: EmittedFile[] = [{ path: `${dir}/${MANIFEST}`, contents: manifestText }];
  for (const [rel, hash] of Object.entries(manifest.outputs)) {
    try {
      const contents = readFileSync(join(outRoot, dir, rel), "utf8");
      if (sha256(contents) !== hash) return undefined;
      files.push({ path: `${dir}/${rel}`, contents });
    } catch {
      return undefined;
    }
  }
  return files;
}

/** The manifests of the servers generated under an output root (unreadable ones are skipped). */
export function generatedManifests(outRoot: string): Partial<Manifest>[] {
  if (!existsSync(outRoot)) return [];
  const found: Partial<Manifest>[] = [];
  for (const entry of readdirSync(outRoot, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    try {
      found.push(JSON.parse(readFileSync(join(outRoot, entry.name, MANIFEST), "utf8")));
    } catch {
      // not a generated server, or a damaged manifest: then it is simply not reused
    }
  }
  return found;
}
