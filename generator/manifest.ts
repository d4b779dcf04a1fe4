// out/<server>/kervan.manifest.json: what went in (input hashes, generator version) and what came
// out (output hashes). Also the cache: an unchanged input hash with intact outputs means no work.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Json } from "../templates/runtime/types.js";
import type { EmittedFile, BundleResult } from "./model/output.js";
import type { ServerPlan } from "./model/plan.js";
import { sha256 } from "./load.js";
import { generatorFingerprint } from "./fingerprint.js";
import { PACKAGE_ROOT } from "./paths.js";
import { byCodeUnit } from "./normalize.js";
import { KINDS } from "./kinds/index.js";

export const MANIFEST = "kervan.manifest.json";

export function generatorVersion(): string {
  return JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")).version;
}

/** Hash of everything that decides a server's output. */
export function inputHash(plan: ServerPlan): string {
  return sha256(JSON.stringify({ fingerprint: generatorFingerprint(), server: plan.server }));
}

function toolFacts(plan: ServerPlan): Json[] {
  return plan.tools.map((t) => {
    const kind = KINDS.find((k) => k.key === t.tool.kind)!;
    return {
      name: t.tool.name,
      kind: t.tool.kind,
      annotations: t.tool.annotations as unknown as Json,
      inputSchemaSha256: sha256(JSON.stringify(t.tool.inputSchema)),
      ...(t.tool.outputSchema ? { outputSchemaSha256: sha256(JSON.stringify(t.tool.outputSchema)) } : {}),
      maxOutputChars: t.tool.maxOutputChars,
      config: t.tool.config,
      ...(kind.facts ? { facts: kind.facts(t.tool) } : {}),
    };
  });
}

export function buildManifest(plan: ServerPlan, files: EmittedFile[], bundle: BundleResult): EmittedFile {
  const outputs: Record<string, string> = {};
  for (const f of [...files, { path: bundle.path, contents: bundle.contents }].sort((a, b) => byCodeUnit(a.path, b.path))) {
    outputs[f.path.slice(plan.dir.length + 1)] = sha256(f.contents);
  }
  const manifest = {
    generator: { name: "kervan", version: generatorVersion() },
    server: { name: plan.server.name, version: plan.server.version },
    inputs: plan.server.inputs,
    inputHash: inputHash(plan),
    tools: toolFacts(plan),
    bundle: { path: "server.mjs", sha256: sha256(bundle.contents), packages: bundle.packages },
    outputs,
  };
  return { path: `${plan.dir}/${MANIFEST}`, contents: JSON.stringify(manifest, null, 2) + "\n" };
}

/** The files of a previous run that can be reused as they are, or undefined when anything differs. */
export function reusable(outRoot: string, plan: ServerPlan): EmittedFile[] | undefined {
  let manifest: { inputHash?: string; outputs?: Record<string, string> };
  let manifestText: string;
  try {
    manifestText = readFileSync(join(outRoot, plan.dir, MANIFEST), "utf8");
    manifest = JSON.parse(manifestText);
  } catch {
    return undefined;
  }
  if (manifest.inputHash !== inputHash(plan) || !manifest.outputs) return undefined;
  const files: EmittedFile[] = [{ path: `${plan.dir}/${MANIFEST}`, contents: manifestText }];
  for (const [rel, hash] of Object.entries(manifest.outputs)) {
    try {
      const contents = readFileSync(join(outRoot, plan.dir, rel), "utf8");
      if (sha256(contents) !== hash) return undefined;
      files.push({ path: `${plan.dir}/${rel}`, contents });
    } catch {
      return undefined;
    }
  }
  return files;
}
