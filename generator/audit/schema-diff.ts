// Compares two JSON Schemas field by field. For an input schema a narrowing breaks callers (a
// call valid before may be refused); for an output schema a widening does (a client may get a
// value it did not expect). Removed properties and new required ones are judged the same way.
import type { Json } from "../../templates/runtime/types.js";
import { same, type Change } from "./change.js";
import { isObject, stringsOf } from "../shared/object.js";

const listOf = (v: Json | undefined): Json[] | undefined => (Array.isArray(v) ? v : undefined);
const numberOf = (v: Json | undefined): number | undefined => (typeof v === "number" ? v : undefined);
const recordOf = (v: Json | undefined): Record<string, Json> => (isObject(v) ? v : {});

export type Direction = "input" | "output";

const UPPER = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const LOWER = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const RESTRICT = ["pattern", "format", "multipleOf", "const"];
const HANDLED = new Set(["type", "enum", "properties", "required", "additionalProperties", "items", "$defs", "anyOf", "oneOf", ...UPPER, ...LOWER, ...RESTRICT]);

/** The JSON types a schema admits (from `type`, or from anyOf/oneOf of plain typed branches); undefined = any. */
function typesOf(s: Record<string, Json>): { types?: string[]; fromUnion: boolean } {
  if (typeof s.type === "string") return { types: [s.type], fromUnion: false };
  const listed = stringsOf(s.type);
  if (listed) return { types: listed.sort(), fromUnion: false };
  const union = listOf(s.anyOf ?? s.oneOf) ?? [];
  const plain = union.flatMap((b) => (isObject(b) && typeof b.type === "string" && Object.keys(b).every((k) => k === "type" || k === "description") ? [b.type] : []));
  if (union.length && plain.length === union.length) return { types: [...new Set(plain)].sort(), fromUnion: true };
  return { fromUnion: false };
}

/** Whether every value of type set `a` is admitted by type set `b` (integer fits number). */
function covered(a: string[] | undefined, b: string[] | undefined): boolean {
  if (!b) return true;
  if (!a) return false;
  return a.every((t) => b.includes(t) || (t === "integer" && b.includes("number")));
}

export function diffSchema(a: Json | undefined, b: Json | undefined, at: string[], dir: Direction, out: Change[]): void {
  const narrowed = (what: string) => (dir === "input" ? `narrowed ${what}: a call valid before may now be refused` : undefined);
  const widened = (what: string) => (dir === "output" ? `widened ${what}: clients may get values they did not expect` : undefined);
  const push = (path: string[], change: Change["change"], old: Json | undefined, now: Json | undefined, breaking?: string) =>
    out.push({ path, change, ...(old !== undefined ? { old } : {}), ...(now !== undefined ? { new: now } : {}), ...(breaking ? { breaking } : {}) });
  if (same(a, b)) return;
  if (!isObject(a) || !isObject(b)) return void push(at, "changed", a, b, narrowed("schema") ?? widened("schema"));

  const [ta, tb] = [typesOf(a), typesOf(b)];
  if (!same(ta.types, tb.types)) {
    const show = (t?: string[]) => (t ? (t.length === 1 ? t[0] : t) : "any");
    const why = !covered(ta.types, tb.types) ? narrowed("type") : !covered(tb.types, ta.types) ? widened("type") : undefined;
    push([...at, "type"], "changed", show(ta.types), show(tb.types), why);
  }
  if (!same(a.enum, b.enum)) {
    const [ea, eb] = [listOf(a.enum), listOf(b.enum)];
    const lost = !eb ? false : !ea || ea.some((v) => !eb.some((w) => same(v, w)));
    const gained = !ea ? false : !eb || eb.some((v) => !ea.some((w) => same(v, w)));
    push([...at, "enum"], ea && eb ? "changed" : ea ? "removed" : "added", a.enum, b.enum, (lost ? narrowed("enum") : undefined) ?? (gained ? widened("enum") : undefined));
  }
  for (const key of [...UPPER, ...LOWER]) {
    const [x, y] = [numberOf(a[key]), numberOf(b[key])];
    if (x === y) continue;
    const upper = UPPER.includes(key);
    const tighter = y !== undefined && (x === undefined || (upper ? y < x : y > x));
    push([...at, key], x === undefined ? "added" : y === undefined ? "removed" : "changed", x, y, tighter ? narrowed(key) : widened(key));
  }
  for (const key of RESTRICT) {
    if (same(a[key], b[key])) continue;
    push([...at, key], a[key] === undefined ? "added" : b[key] === undefined ? "removed" : "changed", a[key], b[key], b[key] !== undefined ? narrowed(key) : widened(key));
  }
  const [pa, pb] = [recordOf(a.properties), recordOf(b.properties)];
  const [ra, rb] = [new Set(stringsOf(a.required) ?? []), new Set(stringsOf(b.required) ?? [])];
  for (const name of [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort()) {
    const path = [...at, "properties", name];
    if (!(name in pb)) push(path, "removed", pa[name], undefined, dir === "input" ? "input property removed: calls that pass it are refused" : "output field removed: clients reading it get nothing");
    else if (!(name in pa)) push(path, "added", undefined, pb[name]);
    else diffSchema(pa[name], pb[name], path, dir, out);
  }
  for (const name of [...rb].filter((n) => !ra.has(n)).sort()) push([...at, "required"], "added", undefined, name, dir === "input" ? `new required input: calls without '${name}' are refused` : undefined);
  for (const name of [...ra].filter((n) => !rb.has(n)).sort()) push([...at, "required"], "removed", name, undefined, dir === "output" && name in pb ? `output field '${name}' may now be missing` : undefined);
  if (!same(a.additionalProperties, b.additionalProperties)) {
    const closes = b.additionalProperties === false;
    if (isObject(a.additionalProperties) && isObject(b.additionalProperties)) diffSchema(a.additionalProperties, b.additionalProperties, [...at, "additionalProperties"], dir, out);
    else push([...at, "additionalProperties"], "changed", a.additionalProperties ?? true, b.additionalProperties ?? true, closes ? narrowed("additionalProperties") : widened("additionalProperties"));
  }
  if (!same(a.items, b.items)) diffSchema(a.items ?? {}, b.items ?? {}, [...at, "items"], dir, out);
  const [da, db] = [recordOf(a.$defs), recordOf(b.$defs)];
  for (const name of [...new Set([...Object.keys(da), ...Object.keys(db)])].sort()) diffSchema(da[name] ?? {}, db[name] ?? {}, [...at, "$defs", name], dir, out);
  for (const key of ["anyOf", "oneOf"]) {
    // A union of plain types was compared as a type set above.
    if (same(a[key], b[key]) || (ta.fromUnion && tb.fromUnion)) continue;
    const [xa, xb] = [listOf(a[key]) ?? [], listOf(b[key]) ?? []];
    if ((ta.fromUnion || tb.fromUnion) && (!xa.length || !xb.length)) continue;
    for (let i = 0; i < Math.max(xa.length, xb.length); i++) diffSchema(xa[i] ?? {}, xb[i] ?? {}, [...at, key, String(i)], dir, out);
  }
  // Everything else (description, title, examples, ...) is reported without judgement.
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !HANDLED.has(k)).sort()) {
    if (!same(a[key], b[key])) push([...at, key], a[key] === undefined ? "added" : b[key] === undefined ? "removed" : "changed", a[key], b[key]);
  }
}
