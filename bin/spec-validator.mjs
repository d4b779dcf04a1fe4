// The spec-shape check's validator of kervan.schema.json, compiled ahead by ajv into standalone
// CommonJS code, which bin/prebuild.mjs writes to dist/spec-validator.cjs: compiling the schema
// is most of the check's time for a small spec, and its result depends on the schema alone.
// generator/check/spec-shape.ts loads it when it runs from dist/ and the schema hash it records is
// that of the schema the check would compile; otherwise it compiles the schema itself, with the
// same options (test/kinds/spec-validator.test.ts holds both to the same options and errors).
import { createRequire } from "node:module";
import { schemaHash } from "../generator/shared/schema-hash.mjs";

/** ajv's options for the spec schema: generator/check/spec-shape.ts SPEC_SHAPE_OPTIONS, with the code kept as source. */
export const PRECOMPILED_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false, code: { source: true } };

/** The CommonJS module of the schema's validator; it exports the validate function, with its schema's hash as `schemaHash`. */
export function specValidatorCode(schema) {
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require("ajv/dist/2020.js");
  const standaloneCode = require("ajv/dist/standalone/index.js").default;
  const ajv = new Ajv2020(PRECOMPILED_OPTIONS);
  const code = standaloneCode(ajv, ajv.compile(schema));
  return `${code}\nmodule.exports.schemaHash = ${JSON.stringify(schemaHash(schema))};\n`;
}
