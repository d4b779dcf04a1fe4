// The `yaml-language-server: $schema=` path a written spec points editors at: kervan.schema.json of
// the installed Kervan, relative to the spec's folder (`../kervan.schema.json` in Kervan's own
// repository, `../node_modules/kervan/kervan.schema.json` in a project that depends on it).
import { join, relative, resolve } from "node:path";
import { PACKAGE_ROOT } from "../paths.js";

export const SCHEMA_FILE = join(PACKAGE_ROOT, "kervan.schema.json");

/** The schema path for a spec written in `specDir` (relative to the working directory, or absolute). */
export function editorSchemaPath(specDir: string): string {
  return relative(resolve(specDir), SCHEMA_FILE).split("\\").join("/");
}

/** The first line of a written spec. */
export const editorSchemaLine = (specDir: string) => ` yaml-language-server: $schema=${editorSchemaPath(specDir)}`;
