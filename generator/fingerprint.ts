// The generator's own fingerprint: its sources, the runtime templates and the versions of the
// packages that shape the output or go into a bundle. Part of every server's input hash, so a generator
// change regenerates everything and an unchanged spec costs nothing.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { createHash } from "node:crypto";
import { installedPackageJson, PACKAGE_ROOT } from "./paths.js";
import { allKinds } from "./kinds/index.js";
import { once } from "./shared/once.js";

// Packages that shape every server's output; each kind adds the packages its runtime bundles, and every
// dependency in Kervan's package.json counts too: jose, the Redis client and the OpenTelemetry SDK go into
// bundles without belonging to a kind, and a new version of one must not leave a cached server stale.
const PACKAGES = ["ajv", "ajv-formats", "esbuild", "json-schema-to-typescript"];

function dependencies(): string[] {
  return Object.keys(JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")).dependencies ?? {});
}

// The command-line layer only parses options and prints: it shapes no byte of a server, except the two
// files that turn flags and paths into spec sources. The importer (`kervan import`) writes specs; it
// shapes no generated server either.
const SHAPING_CLI = new Set(["generator/cli/sources.ts", "generator/cli/tool-flags.ts"]);
const shaping = (file: string): boolean =>
  !file.startsWith("generator/import/") && (!file.startsWith("generator/cli/") || SHAPING_CLI.has(file));

function listFiles(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(path, out);
    else out.push(path);
  }
}

/** The packages whose installed versions are part of the fingerprint. */
export function fingerprintPackages(): string[] {
  return [...new Set([...PACKAGES, ...allKinds().flatMap((k) => k.runtime.packages ?? []), ...dependencies()])].sort();
}

/** The fingerprint, computed once per process. */
export const generatorFingerprint = once((): string => {
  const hash = createHash("sha256");
  const files: string[] = [];
  // The generator, the runtime templates, and each kind's runtime folder (a kind may live elsewhere).
  const dirs = [...new Set(["generator", "templates", ...allKinds().map((k) => k.runtime.dir)])];
  for (const dir of dirs.filter((d) => !dirs.some((o) => o !== d && d.startsWith(`${o}/`)))) listFiles(join(PACKAGE_ROOT, dir), files);
  for (const file of files.map((f) => relative(PACKAGE_ROOT, f).split("\\").join("/")).filter(shaping).sort()) {
    hash.update(file).update("\0").update(readFileSync(join(PACKAGE_ROOT, file))).update("\0");
  }
  for (const name of fingerprintPackages()) {
    try {
      hash.update(`${name}@${JSON.parse(readFileSync(installedPackageJson(name) ?? "", "utf8")).version}\0`);
    } catch {
      hash.update(`${name}@missing\0`);
    }
  }
  return hash.digest("hex");
});
