#!/usr/bin/env node
// Runs the prebuilt generator in dist/ when it matches the sources it was built from (bin/prebuilt.mjs);
// otherwise, or with KERVAN_FROM_SOURCE=1, the TypeScript sources through tsx, so a fresh edit or a
// clone without a build runs as it is.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { prebuiltEntry } from "./prebuilt.mjs";

const entry = process.env.KERVAN_FROM_SOURCE === "1" ? undefined : prebuiltEntry(dirname(dirname(fileURLToPath(import.meta.url))));
if (entry) {
  await import(entry);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../generator/cli.ts");
}
