// Where Kervan's own files live, whatever the working directory.
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

export const PACKAGE_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const TEMPLATES = join(PACKAGE_ROOT, "templates");
