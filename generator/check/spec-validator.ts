// kervan.schema.json's validator as bin/prebuild.mjs compiled it ahead, dist/spec-validator.cjs
// (bin/spec-validator.mjs): taken when the generator runs from dist/ and that validator was
// compiled from the very schema the check would compile, by the ajv installed; otherwise the
// check compiles the schema itself (check/spec-shape.ts), as it does from the sources.
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { Json } from "../../templates/runtime/types.js";
import { PREBUILT } from "../shared/ts-worker.js";
import { schemaHash } from "../shared/schema-hash.mjs";

/** The file, beside the prebuilt chunks in dist/. */
export const SPEC_VALIDATOR_FILE = "spec-validator.cjs";

const isPrecompiled = (v: unknown): v is ValidateFunction & { schemaHash: unknown } => typeof v === "function" && "schemaHash" in v;

/** The validator compiled ahead for `schema`, when there is one for it; undefined from the sources, or when it was compiled from another schema. */
export function precompiledValidator(schema: Json, prebuilt = PREBUILT): ValidateFunction | undefined {
  if (!prebuilt) return undefined;
  let loaded: unknown;
  try {
    loaded = createRequire(import.meta.url)(`./${SPEC_VALIDATOR_FILE}`);
  } catch {
    return undefined;
  }
  return isPrecompiled(loaded) && loaded.schemaHash === schemaHash(schema) ? loaded : undefined;
}
