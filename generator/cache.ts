// The manifest cache: a previous run's outputs stand when nothing that decides them changed. Found
// by content hashes alone, through the manifests under the output root; `--check` never uses it.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EmittedFile } from "./model/output.js";
import type { ServerPlan } from "./model/plan.js";
import type { SourceFile } from "./model/spec.js";
import { sha256 } from "./shared/hash.js";
import { byCodeUnit } from "./shared/order.js";
import { READ_LIMITS, readRegularFile } from "./shared/read-bounded.js";
import { generatedManifests, inputHash, MANIFEST, readManifest, sourceHash, type StoredManifest } from "./manifest.js";

export type Cached = { name: string; files: EmittedFile[] };

/**
 * When every spec (and each file it includes) and the generator are unchanged and every output is
 * intact, the previous run's files stand as they are: nothing is parsed, checked, linted, emitted
 * or bundled. (Warnings were printed by the run that built them.)
 */
export function unchanged(sources: SourceFile[], outRoot: string): Cached[] | undefined {
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
        if (sha256(readRegularFile(join(dirname(source.path), path), READ_LIMITS.schemaFileBytes)) !== h) return undefined;
      } catch {
        return undefined;
      }
    }
    if (match.manifest.sourceHash !== sourceHash(inputs)) return undefined;
    const files = cachedOutputs(outRoot, match);
    if (!files) return undefined;
    found.push({ name, files });
  }
  return found.sort((a, b) => byCodeUnit(a.name, b.name));
}

/** The files of a previous run that can be reused as they are, or undefined when anything differs. */
export function reusable(outRoot: string, plan: ServerPlan): EmittedFile[] | undefined {
  const stored = readManifest(outRoot, plan.dir);
  return stored?.manifest.inputHash === inputHash(plan) ? cachedOutputs(outRoot, stored) : undefined;
}

/** A server's files as a previous run left them, when every output still has its recorded hash. */
export function cachedOutputs(outRoot: string, stored: StoredManifest): EmittedFile[] | undefined {
  const { dir, text, manifest } = stored;
  if (!manifest.outputs) return undefined;
  const files: EmittedFile[] = [{ path: `${dir}/${MANIFEST}`, contents: text }];
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
