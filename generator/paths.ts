// Where Kervan's own files live, whatever the working directory.
import { fileURLToPath } from "node:url";
import { basename, dirname, join } from "node:path";
import { existsSync } from "node:fs";

export const PACKAGE_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * The project Kervan works for: the folder whose node_modules holds Kervan when it is installed
 * as a dependency, else Kervan's own root (this repository).
 */
export const PROJECT_ROOT = basename(dirname(PACKAGE_ROOT)) === "node_modules" ? dirname(dirname(PACKAGE_ROOT)) : PACKAGE_ROOT;

/**
 * The package.json of a package Kervan uses, found as Node finds it: in node_modules of Kervan's
 * root or of any folder above (npm hoists Kervan's dependencies into the project that installs it).
 */
export function installedPackageJson(name: string): string | undefined {
  for (let dir = PACKAGE_ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name, "package.json");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
