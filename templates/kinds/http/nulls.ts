// Optional output fields: a JMESPath select yields null for a missing key, and APIs send
// `"author": null` for fields their descriptions type as plain strings. The value of an http tool
// with an output schema loses each `null` member the schema does not allow for a property that is
// not required, in nested objects and array items too (through the schema's own `$defs`), so it
// passes its own schema. A null the schema allows stays, and a required property's null is left
// for the output check to refuse.
// The plan is computed from the schema at build time (nullPlan) and applied per call (dropNulls).
import type { Json } from "../../runtime/types.js";

/** Where nulls are dropped: `drop` names the members of an object, `props`/`items` go deeper. */
export interface NullPlan {
  drop?: string[];
  props?: Record<string, NullPlan>;
  items?: NullPlan;
}

type Schema = Record<string, unknown>;
const isSchema = (s: unknown): s is Schema => typeof s === "object" && s !== null && !Array.isArray(s);

/**
 * What a schema's same-document `$ref` (`#/$defs/name`, an entry of the root's `$defs`) points at,
 * once per path: a `$ref` already followed on the way here, or one elsewhere, is not followed.
 */
interface Defs {
  root: Schema;
  path: ReadonlySet<string>;
}

function target(s: Schema, defs: Defs): { schema: unknown; defs: Defs } | undefined {
  const name = typeof s.$ref === "string" ? /^#\/\$defs\/([^/]+)$/.exec(s.$ref)?.[1]?.replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
  const entries = defs.root.$defs;
  if (name === undefined || defs.path.has(name) || !isSchema(entries) || !Object.hasOwn(entries, name)) return undefined;
  return { schema: entries[name], defs: { root: defs.root, path: new Set([...defs.path, name]) } };
}

/** Whether a value of null may pass `s` as far as its keywords and its `$defs` say (a `$ref` not followed is taken to allow it). */
function allowsNull(s: unknown, defs: Defs): boolean {
  if (!isSchema(s)) return s !== false;
  if ("const" in s) return s.const === null;
  if (Array.isArray(s.enum) && !s.enum.includes(null)) return false;
  if (typeof s.type === "string" && s.type !== "null") return false;
  if (Array.isArray(s.type) && !s.type.includes("null")) return false;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = s[key];
    if (Array.isArray(branches) && !branches.some((b) => allowsNull(b, defs))) return false;
  }
  if (Array.isArray(s.allOf) && !s.allOf.every((b) => allowsNull(b, defs))) return false;
  const to = target(s, defs);
  return to ? allowsNull(to.schema, to.defs) : true;
}

/** The drop plan of an output schema; undefined when nothing is ever dropped. */
export function nullPlan(schema: unknown): NullPlan | undefined {
  return isSchema(schema) ? planOf(schema, { root: schema, path: new Set() }, 0) : undefined;
}

function planOf(schema: unknown, defs: Defs, depth: number): NullPlan | undefined {
  if (!isSchema(schema) || depth > 64) return undefined;
  // A subschema that is only a `$ref` (as the `$defs` hoisting writes it) is planned as what it points at.
  const to = Object.keys(schema).length === 1 ? target(schema, defs) : undefined;
  if (to) return planOf(to.schema, to.defs, depth + 1);
  const plan: NullPlan = {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  if (isSchema(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      if (!required.has(name) && !allowsNull(sub, defs)) (plan.drop ??= []).push(name);
      const inner = planOf(sub, defs, depth + 1);
      if (inner) (plan.props ??= {})[name] = inner;
    }
  }
  const items = planOf(schema.items, defs, depth + 1);
  if (items) plan.items = items;
  return plan.drop || plan.props || plan.items ? plan : undefined;
}

/** The value without the nulls the plan drops (a copy where anything changes). */
export function dropNulls(value: Json, plan: NullPlan): Json {
  if (Array.isArray(value)) return plan.items ? value.map((v) => dropNulls(v, plan.items!)) : value;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, Json> = { ...value };
  for (const name of plan.drop ?? []) if (Object.hasOwn(out, name) && out[name] === null) delete out[name];
  for (const [name, inner] of Object.entries(plan.props ?? {})) if (Object.hasOwn(out, name)) out[name] = dropNulls(out[name], inner);
  return out;
}
