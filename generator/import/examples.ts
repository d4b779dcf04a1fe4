// Satisfiability of an imported input schema, by generated examples: a value is built for the
// schema (allOf folded, $refs into $defs followed, required properties filled), and where no value
// can exist (a const and an enum that disagree, no type left, a lower bound above the upper) the
// reason is given instead. Every branch of every union (oneOf/anyOf) must give a value: an
// operation whose schema cannot be satisfied is reported, not written (importer.ts). The corpus test
// validates each generated example against its schema with ajv, so the examples are checked too.
import type { Json } from "../../templates/runtime/types.js";
import { isObject } from "../shared/object.js";
import { escapePointer, unescapePointer } from "../shared/pointer.js";

type S = Record<string, Json>;
export type Example = { value: Json } | { conflict: string };

const MAX_DEPTH = 24;
const same = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);
const TYPES = ["null", "boolean", "object", "array", "number", "string", "integer"];

function typeOf(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}
const typeAllows = (types: Set<string>, v: Json) => types.has(typeOf(v)) || (typeOf(v) === "integer" && types.has("number"));

/** One schema with its allOf folded in: what every part says at once. */
interface Facts {
  types?: Set<string>;
  consts: Json[];
  enums: Json[][];
  props: Map<string, Json[]>;
  required: Set<string>;
  items: Json[];
  unions: Json[][];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  never?: boolean;
}

/** The numeric bounds of Facts. */
type Bound = "min" | "max" | "minLength" | "maxLength" | "minItems" | "maxItems";

function resolve(root: S, s: Json): Json {
  let node = s;
  for (let hops = 0; isObject(node) && typeof node.$ref === "string" && hops < 32; hops++) {
    const m = /^#\/\$defs\/(.+)$/.exec(node.$ref);
    const defs = root.$defs;
    const target = m && isObject(defs) ? defs[unescapePointer(m[1])] : undefined;
    if (target === undefined) return {};
    const { $ref: _ref, ...rest } = node;
    node = Object.keys(rest).length ? { allOf: [target, rest] } : target;
  }
  return node;
}

function fold(root: S, schema: Json, f: Facts, depth: number): void {
  const s = resolve(root, schema);
  if (s === false) f.never = true;
  if (!isObject(s) || depth > MAX_DEPTH) return;
  if (s.type !== undefined) {
    const own = new Set((Array.isArray(s.type) ? s.type : [s.type]).map(String));
    if (own.has("number")) own.add("integer");
    f.types = f.types ? new Set([...f.types].filter((t) => own.has(t))) : own;
  }
  if ("const" in s) f.consts.push(s.const);
  if (Array.isArray(s.enum)) f.enums.push(s.enum);
  if (isObject(s.properties)) for (const [k, v] of Object.entries(s.properties)) f.props.set(k, [...(f.props.get(k) ?? []), v]);
  if (Array.isArray(s.required)) for (const r of s.required) f.required.add(String(r));
  if (s.items !== undefined && !Array.isArray(s.items)) f.items.push(s.items);
  for (const union of [s.anyOf, s.oneOf]) if (Array.isArray(union) && union.length) f.unions.push(union);
  const bound = (key: Bound, v: Json | undefined, pick: (a: number, b: number) => number) => {
    const was = f[key];
    if (typeof v === "number") f[key] = was === undefined ? v : pick(was, v);
  };
  bound("min", s.minimum, Math.max);
  bound("min", typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1e-9 : undefined, Math.max);
  bound("max", s.maximum, Math.min);
  bound("max", typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum - 1e-9 : undefined, Math.min);
  bound("minLength", s.minLength, Math.max);
  bound("maxLength", s.maxLength, Math.min);
  bound("minItems", s.minItems, Math.max);
  bound("maxItems", s.maxItems, Math.min);
  if (typeof s.format === "string") f.format ??= s.format;
  if (Array.isArray(s.allOf)) for (const part of s.allOf) fold(root, part, f, depth + 1);
}

const facts = (root: S, schemas: Json[], depth: number): Facts => {
  const f: Facts = { consts: [], enums: [], props: new Map(), required: new Set(), items: [], unions: [] };
  for (const s of schemas) fold(root, s, f, depth);
  return f;
};

const FORMATS: Record<string, string> = {
  "date-time": "2024-01-01T00:00:00Z",
  date: "2024-01-01",
  time: "00:00:00Z",
  email: "a@example.com",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  hostname: "example.com",
};

function scalar(f: Facts, type: string): Json {
  if (type === "null") return null;
  if (type === "boolean") return false;
  if (type === "integer" || type === "number") {
    let n = f.min !== undefined ? f.min : f.max !== undefined ? Math.min(0, f.max) : 0;
    if (type === "integer") n = f.min !== undefined ? Math.ceil(f.min) : f.max !== undefined ? Math.min(0, Math.floor(f.max)) : 0;
    return n;
  }
  const fixed = f.format ? FORMATS[f.format] : undefined;
  if (fixed !== undefined && (f.minLength ?? 0) <= fixed.length && fixed.length <= (f.maxLength ?? Infinity)) return fixed;
  return "a".repeat(f.minLength ?? (f.maxLength === 0 ? 0 : 1));
}

function fromFacts(root: S, f: Facts, depth: number): Example {
  if (f.never) return { conflict: "a schema that accepts nothing (false)" };
  const types = f.types ?? new Set(TYPES);
  if (!types.size) return { conflict: "its types exclude each other" };
  if (f.min !== undefined && f.max !== undefined && f.min > f.max && (types.has("number") || types.has("integer")) && [...types].every((t) => t === "number" || t === "integer")) return { conflict: `minimum ${f.min} is above maximum ${f.max}` };
  // A fixed value: every const and every enum must agree on one, of an allowed type.
  let allowed: Json[] | undefined;
  if (f.consts.length) {
    if (!f.consts.every((c) => same(c, f.consts[0]))) return { conflict: `it requires both ${f.consts.map((c) => JSON.stringify(c)).join(" and ")}` };
    allowed = [f.consts[0]];
  }
  for (const e of f.enums) allowed = (allowed ?? e).filter((v) => e.some((w) => same(v, w)));
  if (allowed) {
    const fits = allowed.filter((v) => typeAllows(types, v));
    if (!fits.length) {
      const said = [...f.consts.map((c) => `const ${JSON.stringify(c)}`), ...f.enums.map((e) => `enum ${JSON.stringify(e)}`)];
      return { conflict: `no value is allowed by ${said.join(" and ")}${f.types ? ` of type ${[...f.types].join("/")}` : ""}` };
    }
    return { value: fits[0] };
  }
  if (depth > MAX_DEPTH) return { value: null };
  // Unions: the first branch that can give a value, with what is known here folded in.
  for (const union of f.unions) {
    let last = "";
    for (const branch of union) {
      const merged = facts(root, [branch], depth + 1);
      const r = fromFacts(root, mergeFacts(f, merged), depth + 1);
      if ("value" in r) return r;
      last = r.conflict;
    }
    return { conflict: `no branch of a union can be satisfied (the last: ${last})` };
  }
  const order = ["object", "string", "integer", "number", "boolean", "array", "null"];
  const type = order.find((t) => types.has(t))!;
  if (type === "object") {
    const value: Record<string, Json> = {};
    for (const name of f.required) {
      const r = fromFacts(root, facts(root, f.props.get(name) ?? [], depth + 1), depth + 1);
      if ("conflict" in r) return { conflict: `property ${JSON.stringify(name)}: ${r.conflict}` };
      value[name] = r.value;
    }
    return { value };
  }
  if (type === "array") {
    const n = f.minItems ?? 0;
    if (f.maxItems !== undefined && n > f.maxItems) return { conflict: `minItems ${n} is above maxItems ${f.maxItems}` };
    if (!n) return { value: [] };
    const r = fromFacts(root, facts(root, f.items, depth + 1), depth + 1);
    return "conflict" in r ? { conflict: `its items: ${r.conflict}` } : { value: Array.from({ length: n }, () => r.value) };
  }
  if (type === "string" && f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) return { conflict: `minLength ${f.minLength} is above maxLength ${f.maxLength}` };
  return { value: scalar(f, type) };
}

function mergeFacts(a: Facts, b: Facts): Facts {
  const props = new Map(a.props);
  for (const [k, v] of b.props) props.set(k, [...(props.get(k) ?? []), ...v]);
  const min = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.min(x, y));
  const max = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.max(x, y));
  return {
    types: a.types && b.types ? new Set([...a.types].filter((t) => b.types!.has(t))) : (a.types ?? b.types),
    consts: [...a.consts, ...b.consts],
    enums: [...a.enums, ...b.enums],
    props,
    required: new Set([...a.required, ...b.required]),
    items: [...a.items, ...b.items],
    // The union being resolved is not taken again; the branch's own unions are.
    unions: [...a.unions.slice(1), ...b.unions],
    min: max(a.min, b.min),
    max: min(a.max, b.max),
    minLength: max(a.minLength, b.minLength),
    maxLength: min(a.maxLength, b.maxLength),
    minItems: max(a.minItems, b.minItems),
    maxItems: min(a.maxItems, b.maxItems),
    format: a.format ?? b.format,
    never: a.never || b.never,
  };
}

/** An example value of `schema` (a root with its `$defs`), or why none exists. */
export function exampleOf(schema: Json, root: S = isObject(schema) ? schema : {}): Example {
  return fromFacts(root, facts(root, [schema], 0), 0);
}

/**
 * Why an input schema cannot be satisfied, if it cannot: the schema as a whole, or any branch of a
 * union anywhere in it (with the parent's own constraints), must give an example.
 */
export function unsatisfiable(input: Json): string | undefined {
  if (!isObject(input)) return undefined;
  const whole = exampleOf(input);
  if ("conflict" in whole) return whole.conflict;
  let found: string | undefined;
  const visit = (node: Json, at: string, depth: number) => {
    if (found || depth > MAX_DEPTH) return;
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${at}/${i}`, depth + 1));
    if (!isObject(node)) return;
    for (const k of ["anyOf", "oneOf"]) {
      const branches = node[k];
      if (!Array.isArray(branches)) continue;
      const { [k]: _taken, ...parent } = node;
      branches.forEach((b, i) => {
        if (found) return;
        const r = fromFacts(input, facts(input, [parent, b], depth), depth);
        if ("conflict" in r) found = `branch ${i} of the ${k} at ${at || "/"} accepts no value: ${r.conflict}`;
      });
    }
    for (const [k, v] of Object.entries(node)) if (k !== "enum" && k !== "const" && k !== "examples" && k !== "default") visit(v, `${at}/${k}`, depth + 1);
  };
  visit(input, "", 0);
  return found;
}
