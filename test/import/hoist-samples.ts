// Arguments for comparing two schemas by what they accept: values built to follow a schema (most of
// them valid), the same values mutated at one place (most of them not), and random JSON. Each value
// is judged by a strict ajv compiled as the emitted validators are (emit/validators.ts), and two
// schemas agree on a value when they give the same verdict and the same errors at the same
// instance locations (where in the schema an error arose may differ).
import fc from "fast-check";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

export function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true, verbose: false });
  addFormats.default(ajv);
  return ajv;
}

/** A value's verdict with its errors (instance location, keyword, parameters), in order. */
export function verdict(validate: ValidateFunction, value: unknown): string[] {
  const ok = validate(value);
  return [String(ok), ...(validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`).sort()];
}

function resolve(root: Obj, s: unknown): unknown {
  let node = s;
  for (let hops = 0; isObj(node) && typeof node.$ref === "string" && hops < 16; hops++) {
    const name = /^#\/\$defs\/(.+)$/.exec(node.$ref)?.[1];
    node = name !== undefined && isObj(root.$defs) ? root.$defs[name] : {};
  }
  return node;
}

const anyJson = fc.jsonValue({ maxDepth: 2 });

function stringFor(s: Obj): fc.Arbitrary<unknown> {
  if (s.format === "date-time") return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
  if (s.format === "uri") return fc.webUrl();
  if (s.format === "email") return fc.emailAddress();
  if (typeof s.pattern === "string") {
    try {
      return fc.stringMatching(new RegExp(s.pattern, "u"));
    } catch {
      // fall through: a plain string
    }
  }
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  return fc.string({ minLength: min, maxLength: Math.max(min, typeof s.maxLength === "number" ? s.maxLength : 12) });
}

function forType(root: Obj, s: Obj, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return fc.integer({ min: typeof s.minimum === "number" ? Math.ceil(s.minimum) : -1000, max: typeof s.maximum === "number" ? Math.floor(s.maximum) : 1000 });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: typeof s.minimum === "number" ? s.minimum : -1e6, max: typeof s.maximum === "number" ? s.maximum : 1e6 });
    case "string":
      return stringFor(s);
    case "array": {
      const items = Array.isArray(s.prefixItems) ? fc.tuple(...s.prefixItems.map((p) => follow(root, p, depth + 1))) : fc.array(follow(root, s.items ?? {}, depth + 1), { maxLength: 3 });
      return items;
    }
    default: {
      const props = isObj(s.properties) ? s.properties : {};
      const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = follow(root, v, depth + 1);
      return fc.record(model, { requiredKeys: Object.keys(model).filter((k) => required.has(k)) });
    }
  }
}

/** A value that follows `schema` (inside `root`, for its `$defs`); most are valid, none is guaranteed to be. */
export function follow(root: Obj, schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(root, schema);
  if (s === false || !isObj(s) || depth > 8) return anyJson;
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  const union = (Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined) as unknown[] | undefined;
  if (union?.length) return fc.oneof(...union.map((b) => follow(root, b, depth + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length) return follow(root, s.allOf[0], depth + 1);
  const types = (Array.isArray(s.type) ? s.type : s.type === undefined ? (s.properties ? ["object"] : []) : [s.type]).map(String);
  if (!types.length) return anyJson;
  return fc.oneof(...types.map((t) => forType(root, s, t, depth)));
}

/** Every place inside a value, as a key path. */
function places(v: unknown, path: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  out.push(path);
  if (Array.isArray(v)) v.forEach((x, i) => places(x, [...path, i], out));
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) places(x, [...path, k], out);
  return out;
}

/** `v` with one place replaced by other JSON, removed, or given an unknown key. */
function mutate(v: unknown, pick: number, other: unknown, how: "replace" | "remove" | "add"): unknown {
  const copy = structuredClone(v);
  const all = places(copy);
  const path = all[pick % all.length];
  if (!path.length) return how === "add" && isObj(copy) ? { ...copy, unexpected_key: other } : other;
  const parent = path.slice(0, -1).reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], copy) as Record<string | number, unknown>;
  const last = path[path.length - 1];
  const target = parent[last];
  if (how === "remove" && isObj(parent)) delete parent[last];
  else if (how === "add" && isObj(target)) target.unexpected_key = other;
  else parent[last] = other;
  return copy;
}

/** Arguments for a schema: followed, mutated at one place, or random JSON. */
export function argumentsFor(schema: Obj): fc.Arbitrary<unknown> {
  const followed = follow(schema, schema);
  const mutated = fc.tuple(followed, fc.nat(), anyJson, fc.constantFrom("replace" as const, "remove" as const, "add" as const)).map(([v, pick, other, how]) => mutate(v, pick, other, how));
  return fc.oneof({ weight: 3, arbitrary: followed }, { weight: 3, arbitrary: mutated }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) });
}
