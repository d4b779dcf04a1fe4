// Keywords about one value: type, enum, const, numeric bounds, string length, pattern, format.
import { quoteValue } from "../../../runtime/clip.js";
import { deepEqual, enumMatcher } from "./equal.js";
import { formatCheck } from "./formats.js";
import { refusals, SchemaRefusal } from "./refusal.js";
import { fail, isObject, jsonType, type Check, type SubschemaCompiler } from "./types.js";

// Looked up with Object.hasOwn only: "constructor" or "toString" must not find Object.prototype's members.
const TYPE_TESTS: Record<string, (v: unknown) => boolean> = {
  null: (v) => v === null,
  boolean: (v) => typeof v === "boolean",
  object: isObject,
  array: Array.isArray,
  number: (v) => typeof v === "number",
  integer: (v) => Number.isInteger(v),
  string: (v) => typeof v === "string",
};

const TYPE_NAMES = "array, boolean, integer, null, number, object or string";

/** Code points, not UTF-16 units, as JSON Schema counts string length. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function decimals(n: number): number {
  const [mant, exp] = String(n).split("e");
  return Math.max(0, (mant.split(".")[1] ?? "").length - Number(exp ?? 0));
}

/** Exact for binary fractions (fmod), decimal scaling for the rest (0.0075 is a multiple of 0.0001). */
export function isMultipleOf(v: number, m: number): boolean {
  if (v % m === 0) return true;
  const q = v / m;
  if (!Number.isFinite(q)) return false;
  if (Number.isInteger(q)) return true;
  const scale = 10 ** Math.max(decimals(v), decimals(m));
  if (!Number.isFinite(scale * v)) return false;
  return Math.round(v * scale) % Math.round(m * scale) === 0;
}

const found = (v: unknown) => `found ${quoteValue(v)}`;

export function scalarKeywords(c: SubschemaCompiler, s: Record<string, unknown>, ptr: string, out: Check[]): void {
  if (s.type !== undefined) {
    const list = Array.isArray(s.type) ? s.type : [s.type];
    list.forEach((t, i) => {
      if (typeof t === "string" && !Object.hasOwn(TYPE_TESTS, t)) {
        const where = Array.isArray(s.type) ? `${ptr}/type/${i}` : `${ptr}/type`;
        throw new SchemaRefusal(refusals.notASchema(where, `${JSON.stringify(t)} is not a JSON Schema type (${TYPE_NAMES})`));
      }
    });
    const types = list.filter((t): t is string => typeof t === "string");
    const tests = types.map((t) => TYPE_TESTS[t]);
    const want = types.join(" or ");
    const at = `${ptr}/type`;
    const msg = (v: unknown) => `must be ${want}; found ${jsonType(v)} ${quoteValue(v)}`;
    if (tests.length === 1) {
      const t = tests[0];
      out.push((v, run, path) => t(v) || fail(run, path, "type", at, msg(v), v));
    } else out.push((v, run, path) => tests.some((t) => t(v)) || fail(run, path, "type", at, msg(v), v));
  }
  if (Array.isArray(s.enum)) {
    const has = enumMatcher(s.enum);
    const list = quoteValue(s.enum);
    out.push((v, run, path) => has(v) || fail(run, path, "enum", `${ptr}/enum`, `must be one of ${list}; ${found(v)}`, v));
  }
  if (c.draft >= 6 && "const" in s) {
    const k = s.const;
    const want = quoteValue(k);
    out.push((v, run, path) => deepEqual(v, k) || fail(run, path, "const", `${ptr}/const`, `must equal ${want}; ${found(v)}`, v));
  }
  numberKeywords(c, s, ptr, out);
  stringKeywords(c, s, ptr, out);
}

function bound(out: Check[], at: string, keyword: string, ok: (n: number) => boolean, words: string): void {
  out.push((v, run, path) => typeof v !== "number" || ok(v) || fail(run, path, keyword, at, `must be ${words}; ${found(v)}`, v));
}

function numberKeywords(c: SubschemaCompiler, s: Record<string, unknown>, ptr: string, out: Check[]): void {
  const num = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : undefined);
  const m = num("multipleOf");
  if (m !== undefined && m > 0) bound(out, `${ptr}/multipleOf`, "multipleOf", (v) => isMultipleOf(v, m), `a multiple of ${m}`);
  const max = num("maximum");
  const min = num("minimum");
  if (c.draft === 4) {
    // Draft 4: exclusiveMaximum/exclusiveMinimum are booleans that sharpen maximum/minimum.
    const exMax = s.exclusiveMaximum === true;
    const exMin = s.exclusiveMinimum === true;
    if (max !== undefined) bound(out, `${ptr}/maximum`, "maximum", exMax ? (v) => v < max : (v) => v <= max, `${exMax ? "<" : "<="} ${max}`);
    if (min !== undefined) bound(out, `${ptr}/minimum`, "minimum", exMin ? (v) => v > min : (v) => v >= min, `${exMin ? ">" : ">="} ${min}`);
    return;
  }
  if (max !== undefined) bound(out, `${ptr}/maximum`, "maximum", (v) => v <= max, `<= ${max}`);
  if (min !== undefined) bound(out, `${ptr}/minimum`, "minimum", (v) => v >= min, `>= ${min}`);
  const xmax = num("exclusiveMaximum");
  const xmin = num("exclusiveMinimum");
  if (xmax !== undefined) bound(out, `${ptr}/exclusiveMaximum`, "exclusiveMaximum", (v) => v < xmax, `< ${xmax}`);
  if (xmin !== undefined) bound(out, `${ptr}/exclusiveMinimum`, "exclusiveMinimum", (v) => v > xmin, `> ${xmin}`);
}

function stringKeywords(c: SubschemaCompiler, s: Record<string, unknown>, ptr: string, out: Check[]): void {
  const maxLen = typeof s.maxLength === "number" ? s.maxLength : undefined;
  const minLen = typeof s.minLength === "number" ? s.minLength : undefined;
  if (maxLen !== undefined) {
    out.push((v, run, path) => {
      if (typeof v !== "string" || v.length <= maxLen) return true; // units >= code points
      const n = codePointLength(v);
      return n <= maxLen || fail(run, path, "maxLength", `${ptr}/maxLength`, `must have at most ${maxLen} characters; has ${n}: ${quoteValue(v)}`, v);
    });
  }
  if (minLen !== undefined) {
    out.push((v, run, path) => {
      if (typeof v !== "string" || v.length >= 2 * minLen) return true;
      const n = codePointLength(v);
      return n >= minLen || fail(run, path, "minLength", `${ptr}/minLength`, `must have at least ${minLen} characters; has ${n}: ${quoteValue(v)}`, v);
    });
  }
  if (typeof s.pattern === "string") {
    const p = c.pattern(s.pattern);
    const at = `${ptr}/pattern`;
    const words = `must match the pattern ${quoteValue(s.pattern)}`;
    out.push((v, run, path) => typeof v !== "string" || run.regex.test(p, v) || fail(run, path, "pattern", at, `${words}; ${found(v)}`, v));
  }
  if (typeof s.format === "string") {
    const f = formatCheck(c.draft, s.format);
    if (f) {
      const at = `${ptr}/format`;
      const words = `must be a valid ${s.format}`;
      out.push((v, run, path) => typeof v !== "string" || f(v) || fail(run, path, "format", at, `${words}; ${found(v)}`, v));
    }
  }
}
