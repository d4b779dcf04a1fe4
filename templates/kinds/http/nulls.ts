// Optional output fields: a JMESPath select yields null for a missing key, and APIs send
// `"author": null` for fields their descriptions type as plain strings. The value of an http tool
// with an output schema loses each `null` member the schema does not allow for a property that is
// not required, in nested objects and array items too, so it passes its own schema. A null the
// schema allows stays, and a required property's null is left for the output check to refuse.
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

/** Whether a value of null may pass `s` as far as its own keywords say (a `$ref` is taken to allow it). */
function allowsNull(s: unknown): boolean {
  if (!isSchema(s)) return s !== false;
  if ("const" in s) return s.const === null;
  if (Array.isArray(s.enum) && !s.enum.includes(null)) return false;
  if (typeof s.type === "string" && s.type !== "null") return false;
  if (Array.isArray(s.type) && !s.type.includes("null")) return false;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = s[key];
    if (Array.isArray(branches) && !branches.some(allowsNull)) return false;
  }
  if (Array.isArray(s.allOf) && !s.allOf.every(allowsNull)) return false;
  return true;
}

/** The drop plan of an output schema; undefined when nothing is ever dropped. */
export function nullPlan(schema: unknown, depth = 0): NullPlan | undefined {
  if (!isSchema(schema) || depth > 64) return undefined;
  const plan: NullPlan = {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  if (isSchema(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      if (!required.has(name) && !allowsNull(sub)) (plan.drop ??= []).push(name);
      const inner = nullPlan(sub, depth + 1);
      if (inner) (plan.props ??= {})[name] = inner;
    }
  }
  const items = nullPlan(schema.items, depth + 1);
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
