// OpenAPI 3.1 schema objects -> JSON Schema 2020-12 that Kervan's strict checks accept.
// Known keywords are kept, OpenAPI-only ones dropped (`example` becomes `examples`), references
// inlined unless they recur (a cycle becomes `$defs` + `$ref`, so nothing loops), readOnly
// properties left out of inputs and writeOnly ones out of outputs, and a discriminator's mapping
// written into its branches as `const`s so the union keeps its meaning for clients.
import type { Json } from "../../templates/runtime/types.js";
import { deref, lookup, OperationSkip } from "./refs.js";
import { isDoc, type Doc } from "./read.js";
import { cleanText } from "./describe.js";
import { noteOrigin } from "./origin.js";
import { newImportRun, type ImportRun, type Inlined } from "./run.js";
import { isObject, stringRecord } from "../shared/object.js";

export type Mode = "input" | "output";
type Obj = Record<string, Json>;

const FORMATS = new Set("date time date-time iso-time iso-date-time duration uri uri-reference uri-template url email hostname ipv4 ipv6 regex uuid json-pointer json-pointer-uri-fragment relative-json-pointer byte int32 int64 float double password binary".split(" "));
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const ANNOTATIONS = ["title", "description", "deprecated"];
// Validation keywords an output schema does not keep: it describes the answer, and a backend that
// is loose about them must not turn a useful answer into a tool error.
const STRICT_OUTPUT = ["required", "enum", "const", "format", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties"];
const NUMBERS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"];

class TooBig extends Error {}

interface Ctx {
  doc: Doc;
  run: ImportRun;
  mode: Mode;
  /** Every reference becomes a `$defs` entry (used when inlining grows too large). */
  allDefs: boolean;
  defs: Map<string, { name: string; schema?: Json }>;
  stack: string[];
  nodes: number;
  /** Inlined references being converted, innermost last: what each one's conversion depended on. */
  open: Frame[];
}

interface Frame {
  refs: Set<string>;
  keep: boolean;
}

function inline(ctx: Ctx, ref: string, target: unknown, depth: number): Json {
  // A shared component is converted once per depth, not once per use; a conversion is reused only
  // where it comes out the same: none of the references met inside it is on the current stack. A
  // conversion that met a cycle (and so named a `$defs` entry) is never kept.
  const cache = ctx.run.inlined;
  const key = `${ctx.mode}\u0000${depth}\u0000${ref}`;
  const hit = cache.get(key);
  if (hit && !ctx.stack.some((r) => hit.refs.has(r))) {
    ctx.nodes += hit.nodes;
    if (ctx.nodes > INLINE_BUDGET) throw new TooBig();
    for (const f of ctx.open) for (const r of hit.refs) f.refs.add(r);
    return hit.value;
  }
  const frame: Frame = { refs: new Set(), keep: true };
  const before = ctx.nodes;
  ctx.open.push(frame);
  ctx.stack.push(ref);
  try {
    const value = conv(target, ctx, depth);
    if (frame.keep) cache.set(key, { value, nodes: ctx.nodes - before, refs: frame.refs });
    return value;
  } finally {
    ctx.stack.pop();
    ctx.open.pop();
  }
}

const INLINE_BUDGET = 4000;
const OUTPUT_DEPTH = 8;

function defName(ctx: Ctx, ref: string): string {
  const existing = ctx.defs.get(ref);
  if (existing) return existing.name;
  const last = ref.split("/").pop() ?? "schema";
  const base = last.replace(/~1/g, "_").replace(/~0/g, "_").replace(/[^A-Za-z0-9_.-]/g, "_") || "schema";
  const taken = new Set([...ctx.defs.values()].map((d) => d.name));
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  ctx.defs.set(ref, { name });
  return name;
}

function isReadOnly(ctx: Ctx, node: unknown, flag: "readOnly" | "writeOnly"): boolean {
  let n = node;
  for (let i = 0; i < 8 && isDoc(n); i++) {
    if (n[flag] === true) return true;
    if (typeof n.$ref !== "string") return false;
    try {
      n = lookup(ctx.doc, n.$ref, ctx.run.found);
    } catch {
      return false;
    }
  }
  return false;
}

function validPattern(p: unknown): p is string {
  if (typeof p !== "string" || p.length > 512) return false;
  try {
    new RegExp(p, "u");
    return true;
  } catch {
    return false;
  }
}

function conv(node: unknown, ctx: Ctx, depth: number): Json {
  if (typeof node === "boolean") return node;
  if (!isDoc(node)) return {};
  // Outputs keep only their upper levels (output.ts cuts them to a budget): no need to convert deeper.
  if (ctx.mode === "output" && depth > OUTPUT_DEPTH) return {};
  if (++ctx.nodes > INLINE_BUDGET && !ctx.allDefs) throw new TooBig();
  const s = node;
  if (typeof s.$ref === "string") {
    const ref = s.$ref;
    const target = lookup(ctx.doc, ref, ctx.run.found);
    const siblings: Obj = {};
    for (const k of ["title", "description"]) if (typeof s[k] === "string") siblings[k] = s[k];
    for (const f of ctx.open) f.refs.add(ref);
    if (ctx.allDefs || ctx.stack.includes(ref) || depth > 40) {
      for (const f of ctx.open) f.keep = false;
      return { $ref: `#/$defs/${defName(ctx, ref)}`, ...siblings };
    }
    const inlined = inline(ctx, ref, target, depth + 1);
    if (typeof inlined !== "object" || inlined === null || Array.isArray(inlined)) return inlined;
    const value = { ...inlined, ...siblings };
    noteOrigin(ctx.run.origins, value, ref);
    return value;
  }
  const out: Obj = {};
  const sub = (v: unknown) => conv(v, ctx, depth + 1);
  const subs = (v: unknown) => (Array.isArray(v) ? v.map(sub) : []);
  for (const k of ANNOTATIONS) {
    if (k === "deprecated" ? typeof s[k] === "boolean" : typeof s[k] === "string") out[k] = k === "deprecated" ? s[k] : cleanText(s[k], k === "title" ? 120 : 400, ctx.run);
    if (out[k] === "") delete out[k];
  }
  const types = (Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type]).filter((t: unknown): t is string => typeof t === "string" && TYPES.has(t));
  if (types.length) out.type = types.length === 1 ? types[0] : [...new Set(types)];
  if (Array.isArray(s.enum) && s.enum.length) out.enum = dedupe(s.enum);
  if ("const" in s) out.const = s.const;
  if (typeof s.format === "string" && FORMATS.has(s.format)) out.format = s.format;
  if (validPattern(s.pattern)) out.pattern = s.pattern;
  for (const k of NUMBERS) if (typeof s[k] === "number" && Number.isFinite(s[k])) out[k] = s[k];
  if (typeof s.multipleOf === "number" && s.multipleOf > 0) out.multipleOf = s.multipleOf;
  if (typeof s.uniqueItems === "boolean") out.uniqueItems = s.uniqueItems;
  if ("default" in s && s.default !== undefined) out.default = s.default;
  const examples = Array.isArray(s.examples) ? s.examples : "example" in s && s.example !== undefined ? [s.example] : [];
  // Examples help a model fill inputs; a large one only weighs down the listing, and outputs need none.
  const small = examples.filter((e: unknown) => JSON.stringify(e ?? null).length <= 200).slice(0, 3);
  if (small.length && ctx.mode === "input") out.examples = small;

  if (s.properties && typeof s.properties === "object" && !Array.isArray(s.properties)) {
    const props: Obj = {};
    const hidden = ctx.mode === "input" ? "readOnly" : "writeOnly";
    for (const key of Object.keys(s.properties)) {
      if (isReadOnly(ctx, s.properties[key], hidden)) continue;
      props[key] = sub(s.properties[key]);
    }
    out.properties = props;
    if (Array.isArray(s.required)) {
      const req = dedupe(s.required.filter((r: unknown) => typeof r === "string" && r in props));
      if (req.length) out.required = req;
    }
  } else if (Array.isArray(s.required) && s.required.length) out.required = dedupe(s.required.filter((r: unknown) => typeof r === "string"));
  if (s.additionalProperties !== undefined && (typeof s.additionalProperties === "boolean" || typeof s.additionalProperties === "object")) {
    out.additionalProperties = sub(s.additionalProperties);
  }
  if (s.patternProperties && typeof s.patternProperties === "object") {
    const pp: Obj = {};
    for (const [k, v] of Object.entries(s.patternProperties)) if (validPattern(k)) pp[k] = sub(v);
    if (Object.keys(pp).length) out.patternProperties = pp;
  }
  if (Array.isArray(s.prefixItems)) out.prefixItems = subs(s.prefixItems);
  if (Array.isArray(s.items)) out.prefixItems = subs(s.items);
  else if (s.items !== undefined) out.items = sub(s.items);
  // Clients refuse an array without items: `items: {}` says the same thing in a form they accept.
  if ((out.type === "array" || (Array.isArray(out.type) && out.type.includes("array"))) && out.items === undefined && out.prefixItems === undefined) out.items = {};
  for (const k of ["allOf", "anyOf", "oneOf"] as const) {
    if (Array.isArray(s[k]) && s[k].length) out[k] = subs(s[k]);
  }
  if (s.not !== undefined && typeof s.not === "object") out.not = sub(s.not);
  inferType(out);
  if (ctx.mode === "input" && s.discriminator && Array.isArray(out.oneOf ?? out.anyOf)) discriminate(s, out, ctx);
  if (ctx.mode === "output") {
    for (const k of STRICT_OUTPUT) delete out[k];
    if (out.additionalProperties === false) delete out.additionalProperties;
    if (Array.isArray(out.oneOf)) {
      out.anyOf = [...(Array.isArray(out.anyOf) ? out.anyOf : []), ...out.oneOf];
      delete out.oneOf;
    }
  }
  return out;
}

// Keywords that apply to one type only; strict compilation wants that type stated next to them.
const TYPE_OF: Array<[string, string[]]> = [
  ["object", ["properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties", "propertyNames", "dependentRequired"]],
  ["array", ["items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"]],
  ["string", ["minLength", "maxLength", "pattern"]],
  ["number", ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]],
];

/** A schema with type-specific keywords and no `type` gets the type those keywords imply (what the document meant). */
function inferType(out: Obj): void {
  if (out.$ref !== undefined) return;
  if (out.type !== undefined) {
    // Keywords for a type the schema does not allow can never apply: strict compilation refuses them.
    const types = new Set((Array.isArray(out.type) ? out.type : [out.type]).map((t) => (t === "integer" ? "number" : String(t))));
    for (const [t, keys] of TYPE_OF) if (!types.has(t)) for (const k of keys) delete out[k];
    return;
  }
  const types = TYPE_OF.filter(([, keys]) => keys.some((k) => k in out)).map(([t]) => t);
  if (types.length) out.type = types.length === 1 ? types[0] : types;
}

function dedupe<T>(values: T[]): T[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = JSON.stringify(v);
    return seen.has(k) ? false : (seen.add(k), true);
  });
}

/** `discriminator.mapping` (or the component names it implies) becomes a const in each branch. */
function discriminate(s: Doc, out: Obj, ctx: Ctx): void {
  const prop = s.discriminator?.propertyName;
  if (typeof prop !== "string") return;
  const key = out.oneOf ? "oneOf" : "anyOf";
  const list = out[key];
  if (!Array.isArray(list)) return;
  const branches: unknown = s.oneOf ?? s.anyOf;
  const byRef = new Map<string, string>();
  for (const [value, ref] of Object.entries(stringRecord(s.discriminator.mapping))) {
    const full = ref.startsWith("#") ? ref : `#/components/schemas/${ref}`;
    if (!byRef.has(full)) byRef.set(full, value);
  }
  out[key] = list.map((branch, i): Json => {
    const source = Array.isArray(branches) ? branches[i] : undefined;
    const ref = isDoc(source) ? source.$ref : undefined;
    if (typeof ref !== "string") return branch;
    const mapped = byRef.get(ref);
    // Without a mapping entry, a branch that pins the property itself (its own const or enum) says
    // its value; only a branch that does not gets the implied one (the schema's name).
    if (mapped === undefined && (byRef.size || pinsProperty(ctx.doc, lookup(ctx.doc, ref, ctx.run.found), prop))) return branch;
    const value = mapped ?? ref.split("/").pop();
    if (value === undefined) return branch;
    return { type: "object", allOf: [branch], properties: { [prop]: { const: value } }, required: [prop] };
  });
}

/** Whether a branch's own schema (its allOf parts too) fixes `prop` with a const or an enum. */
function pinsProperty(doc: Doc, branch: unknown, prop: string, depth = 0): boolean {
  const s = deref(doc, branch);
  if (!isDoc(s) || depth > 16) return false;
  const own = s.properties && typeof s.properties === "object" ? deref(doc, s.properties[prop]) : undefined;
  if (isDoc(own) && ("const" in own || Array.isArray(own.enum))) return true;
  return Array.isArray(s.allOf) && s.allOf.some((part: unknown) => pinsProperty(doc, part, prop, depth + 1));
}

/** The `$defs` table of a conversion, each entry converted; undefined when it met no reference it keeps. */
function defsOf(ctx: Ctx): Obj | undefined {
  // Each $defs entry is converted once, with itself on the stack, so a self-reference stays a $ref.
  for (let done = 0; done < ctx.defs.size; ) {
    const pending = [...ctx.defs.entries()].filter(([, d]) => d.schema === undefined);
    if (!pending.length) break;
    for (const [ref, d] of pending) {
      ctx.stack = [ref];
      d.schema = conv(lookup(ctx.doc, ref, ctx.run.found), ctx, 1);
      done++;
    }
  }
  if (!ctx.defs.size) return undefined;
  const defs: Obj = {};
  for (const d of [...ctx.defs.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) defs[d.name] = d.schema!;
  return defs;
}

function finish(root: Json, ctx: Ctx): Json {
  const defs = defsOf(ctx);
  return defs && isObject(root) ? { ...root, $defs: defs } : root;
}

/** Converts a schema; inlines references, falling back to `$defs` for every reference when inlining grows too large. */
export function convertSchema(doc: Doc, schema: unknown, mode: Mode, run: ImportRun = newImportRun()): Json {
  const fresh = (allDefs: boolean): Ctx => ({ doc, run, mode, allDefs, defs: new Map(), stack: [], nodes: 0, open: [] });
  try {
    const ctx = fresh(false);
    return finish(conv(schema, ctx, 1), ctx);
  } catch (e) {
    if (!(e instanceof TooBig)) throw e;
    const ctx = fresh(true);
    return finish(conv(schema, ctx, 1), ctx);
  }
}

/** Converts several schemas (the properties of one input) sharing one `$defs` table at the root. */
export function convertProperties(doc: Doc, schemas: Array<{ schema: unknown }>, mode: Mode, run: ImportRun = newImportRun()): { props: Json[]; defs?: Obj } {
  const convert = (allDefs: boolean) => {
    const ctx: Ctx = { doc, run, mode, allDefs, defs: new Map(), stack: [], nodes: 0, open: [] };
    const props = schemas.map((s) => conv(s.schema, ctx, 2));
    const defs = defsOf(ctx);
    return { props, ...(defs ? { defs } : {}) };
  };
  try {
    return convert(false);
  } catch (e) {
    if (!(e instanceof TooBig)) throw e;
    return convert(true);
  }
}

export { OperationSkip };
