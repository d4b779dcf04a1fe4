// Bundled packages with their licenses, read from each package's own package.json.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../paths.js";
import type { BundledPackage } from "./types.js";

function licenseOf(name: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "node_modules", name, "package.json"), "utf8"));
    // Old package.json files spell it as an object or a list of objects.
    const l = pkg.license ?? pkg.licenses;
    if (typeof l === "string") return l;
    if (Array.isArray(l)) return l.map((x) => x?.type ?? String(x)).join(" OR ");
    if (l && typeof l.type === "string") return l.type;
  } catch {
    // fall through: a package we cannot read is listed as such, not skipped
  }
  return "UNKNOWN";
}

export function withLicenses(packages: Record<string, string>): Record<string, BundledPackage> {
  const out: Record<string, BundledPackage> = {};
  for (const name of Object.keys(packages).sort()) out[name] = { version: packages[name], license: licenseOf(name) };
  return out;
}
