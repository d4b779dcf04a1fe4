// First check: the document against kervan.schema.json, errors turned into readable diagnostics.
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import type { LoadedSpec } from "../model/spec.js";
import type { Diagnostic } from "../model/diagnostic.js";
import { specSchema } from "./spec-schema.js";
import { at } from "../shared/locate.js";
import { levenshtein } from "../shared/levenshtein.js";
import { escapePointer, unescapePointer } from "../shared/pointer.js";
import { isObject } from "../shared/object.js";
import { once } from "../shared/once.js";
import { precompiledValidator } from "./spec-validator.js";

/** ajv's options for kervan.schema.json (bin/spec-validator.mjs compiles it ahead with the same). */
export const SPEC_SHAPE_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false } as const;

/**
 * kervan.schema.json compiled, once per process: compiled ahead when the generator runs from dist/
 * (check/spec-validator.ts), else here. The schema is the generator's own, proved valid against
 * the meta-schema by test/kinds/schemas-valid.test.ts, so ajv is spared compiling the meta-schema
 * only to check it again on every run.
 */
const getValidator = once(() => {
  const schema = specSchema();
  return precompiledValidator(schema) ?? new Ajv2020(SPEC_SHAPE_OPTIONS).compile(schema);
});

function closest(word: string, options: string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const o of options) {
    const d = levenshtein(word.toLowerCase(), o.toLowerCase());
    if (d < bestScore) [best, bestScore] = [o, d];
  }
  return bestScore <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** /tools/0/exec/argv -> tools[0].exec.argv */
export function readablePath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((s) => unescapePointer(s))
    .map((s, i) => (/^[0-9]+$/.test(s) ? `[${s}]` : i ? `.${s}` : s))
    .join("");
}

function toDiagnostic(spec: LoadedSpec, e: ErrorObject): Diagnostic {
  const where = e.instancePath || "";
  const what = where ? `'${readablePath(where)}'` : "the spec";
  switch (e.keyword) {
    case "additionalProperties": {
      const prop = String(e.params.additionalProperty);
      const known = isObject<unknown>(e.parentSchema) && isObject<unknown>(e.parentSchema.properties) ? Object.keys(e.parentSchema.properties) : [];
      const guess = closest(prop, known);
      return at(spec, "KV201", `unknown property '${prop}' in ${what}`, `${where}/${escapePointer(prop)}`, {
        atKey: true,
        suggestion: guess ? `did you mean '${guess}'?` : `known properties: ${known.join(", ")}`,
      });
    }
    case "required":
      return at(spec, "KV202", `${what} is missing required property '${e.params.missingProperty}'`, where);
    case "type":
      return at(spec, "KV203", `${what} must be ${e.params.type === "integer" ? "an integer" : `of type ${String(e.params.type).split(",").join(" or ")}`}`, where);
    case "pattern":
      // A schema slot (input, output.schema) takes an object or an @file reference, nothing else.
      if (e.params.pattern === "^@") return at(spec, "KV204", `${what} must be a JSON Schema (an object) or a reference @path/to/schema.json`, where);
      return at(spec, "KV204", `${what} must match ${e.params.pattern}`, where);
    case "minimum":
    case "minItems":
    case "minLength":
      return at(spec, "KV205", `${what} ${e.message}`, where);
    case "enum":
      return at(spec, "KV206", `${what} must be one of ${(Array.isArray(e.params.allowedValues) ? e.params.allowedValues : []).map((v) => JSON.stringify(v)).join(", ")}`, where);
    default:
      return at(spec, "KV200", `${what} ${e.message}`, where);
  }
}

export function checkShape(spec: LoadedSpec): Diagnostic[] {
  if (spec.doc === undefined) return [];
  const validate = getValidator();
  if (validate(spec.doc)) return [];
  return (validate.errors ?? []).map((e) => toDiagnostic(spec, e));
}
