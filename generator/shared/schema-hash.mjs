// The hash a precompiled spec validator records (bin/spec-validator.mjs writes it, check/spec-validator.ts
// compares it): sha256 of the schema's JSON text and the ajv version that compiles it. Plain JavaScript,
// so that bin/prebuild.mjs, which runs before anything is compiled, and the generator share one copy.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";

export function schemaHash(schema) {
  const ajvVersion = createRequire(import.meta.url)("ajv/package.json").version;
  return createHash("sha256").update(`ajv ${ajvVersion}\n${JSON.stringify(schema)}`).digest("hex");
}
