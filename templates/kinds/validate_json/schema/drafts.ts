// Draft selection by $schema, and where each draft keeps subschemas (for the refusal walk).
import type { Draft } from "./types.js";

const DRAFTS: [RegExp, Draft][] = [
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, 4],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, 6],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, 7],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, 2019],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, 2020],
];

/** The draft a $schema value names; null when it names none of the five. */
export function draftOf(uri: string): Draft | null {
  for (const [re, d] of DRAFTS) if (re.test(uri)) return d;
  return null;
}

/** Keywords whose value is one subschema. */
export function singleSchemaKeywords(d: Draft): string[] {
  const base = ["additionalItems", "additionalProperties", "not"];
  if (d >= 6) base.push("contains", "propertyNames");
  if (d >= 7) base.push("if", "then", "else");
  if (d >= 2019) base.push("unevaluatedItems", "unevaluatedProperties");
  if (d !== 2020) base.push("items"); // may also be an array, handled by the walker
  else base.push("items");
  return base;
}

/** Keywords whose value is an array of subschemas. */
export function arraySchemaKeywords(d: Draft): string[] {
  return d === 2020 ? ["allOf", "anyOf", "oneOf", "prefixItems"] : ["allOf", "anyOf", "oneOf"];
}

/** Keywords whose value maps names to subschemas. */
export function mapSchemaKeywords(d: Draft): string[] {
  const m = ["properties", "patternProperties", "definitions"];
  if (d >= 2019) m.push("$defs", "dependentSchemas");
  else m.push("dependencies"); // values that are arrays are not schemas
  return m;
}

/** The keyword naming a schema resource in this draft. */
export const idKeyword = (d: Draft) => (d === 4 ? "id" : "$id");
