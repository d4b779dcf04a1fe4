// Encoders by place. The generator decides each placeholder's place at build time; these
// functions are the only way a value reaches the request, each safe for its place.
import type { Json } from "../../runtime/types.js";
import type { FieldSpec, JsonTemplate, Part } from "./config.js";

/** A problem with this call's values: becomes a readable tool error, nothing is sent. */
export class ToolFault extends Error {}

export interface Values {
  input: Record<string, unknown>;
  secrets: ReadonlyMap<string, string>;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** encodeURIComponent throws on lone surrogates; URLSearchParams maps them to U+FFFD, so do the same. */
function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, "\uFFFD");
}

// Values made only of these need no encoding in any place (common: ids, numbers, enums).
const SAFE = /^[A-Za-z0-9\-._]*$/;

/** Percent-encodes everything but unreserved characters: a value can never add `/`, `?`, `#`. */
export function encodePathValue(s: string): string {
  if (SAFE.test(s)) return s;
  return encodeURIComponent(wellFormed(s)).replace(/[!'()*]/g, hexEscape);
}

/** application/x-www-form-urlencoded, byte-for-byte what URLSearchParams produces. */
export function formEncode(s: string): string {
  if (SAFE.test(s)) return s;
  return encodeURIComponent(wellFormed(s)).replace(/[!'()~]/g, hexEscape).replace(/%20/g, "+");
}

function hexEscape(c: string): string {
  return "%" + c.charCodeAt(0).toString(16).toUpperCase();
}

/** An argument by name; own properties only, so a field named "constructor" is never Object's. */
export function arg(vals: Values, name: string): unknown {
  return Object.hasOwn(vals.input, name) ? vals.input[name] : undefined;
}

/** A scalar input as text; undefined when absent. null counts as absent (no value to send). */
function scalarText(name: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number" && Number.isFinite(v)) return JSON.stringify(v);
  throw new ToolFault(`input.${name} must be a string, number or boolean here`);
}

/** The text of one part, or undefined when the value it names is absent. */
function partText(p: Part, vals: Values): string | undefined {
  if ("lit" in p) return p.lit;
  if ("input" in p) return scalarText(p.input, arg(vals, p.input));
  return vals.secrets.get(p.secret);
}

type Encoder = (s: string) => string;
const same: Encoder = (s) => s;

/** Renders a template, encoding each value; undefined if any value is absent. */
function render(parts: Part[], vals: Values, encode: Encoder, encodeLit: Encoder = same): string | undefined {
  let out = "";
  for (const p of parts) {
    const t = partText(p, vals);
    if (t === undefined) return undefined;
    out += "lit" in p ? encodeLit(t) : encode(t);
  }
  return out;
}

function describe(p: Part): string {
  return "input" in p ? `input.${p.input}` : "secret" in p ? `secret ${p.secret}` : "literal";
}

/** How many rounds of percent-decoding a path value may need; more is refused rather than guessed at. */
const MAX_DECODE_ROUNDS = 16;
const ASCII_ESCAPE = /%([0-7][0-9A-Fa-f])/g;

/**
 * Decodes ASCII escapes repeatedly, so `%2e%2e`, `%252e%252e` and deeper nestings are seen as the dots
 * an upstream may see (the separators and dots are ASCII; each escape is decoded on its own, so one
 * malformed escape cannot stop the rest from being seen). Undefined when it is still decoding after
 * MAX_DECODE_ROUNDS rounds.
 */
function fullyDecoded(s: string): string | undefined {
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    const next = s.replace(ASCII_ESCAPE, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    if (next === s) return s;
    s = next;
  }
  return undefined;
}

/** One path segment: literals raw (checked at creation), values percent-encoded. */
export function pathSegment(parts: Part[], vals: Values): string {
  // All-literal segments (including the empty one of a trailing slash) were checked at creation.
  if (parts.every((p) => "lit" in p)) return parts.map((p) => (p as { lit: string }).lit).join("");
  const seg = render(parts, vals, encodePathValue);
  if (seg === undefined) {
    const missing = parts.find((p) => !("lit" in p) && partText(p, vals) === undefined)!;
    throw new ToolFault(`${describe(missing)} is required: it is part of the URL path`);
  }
  const who = parts.filter((p) => !("lit" in p)).map(describe).join(", ");
  if (seg === "") throw new ToolFault(`${who} must not be empty: it is a URL path segment`);
  // Refused even when encoded: some upstreams and proxies decode %2F or %2e before routing.
  const plain = fullyDecoded(seg);
  if (plain === undefined) throw new ToolFault(`${who} is percent-encoded too many times over to check it for "." and ".." segments`);
  if (plain.split(/[/\\]/).some((c) => c === "." || c === "..")) {
    throw new ToolFault(`${who} must not be or contain a "." or ".." path segment`);
  }
  return seg;
}

/** Query string or form body; absent values leave their field out. */
export function encodeFields(fields: FieldSpec[], vals: Values): string {
  const out: string[] = [];
  for (const f of fields) {
    const name = formEncode(f.name);
    if ("value" in f) {
      const v = render(f.value, vals, formEncode, formEncode);
      if (v !== undefined) out.push(`${name}=${v}`);
      continue;
    }
    if ("map" in f) {
      const given = arg(vals, f.map.input);
      if (given === undefined || given === null) continue;
      const key = scalarText(f.map.input, given);
      // The input schema's enum normally stops other values first; this guards a looser schema.
      if (key === undefined || !Object.hasOwn(f.map.values, key)) {
        throw new ToolFault(`input.${f.map.input} must be one of ${Object.keys(f.map.values).map((k) => JSON.stringify(k)).join(", ")}`);
      }
      out.push(`${name}=${formEncode(f.map.values[key])}`);
      continue;
    }
    const arr = arg(vals, f.array.input);
    if (arr === undefined || arr === null) continue;
    if (!Array.isArray(arr)) throw new ToolFault(`input.${f.array.input} must be an array`);
    const items: string[] = [];
    for (const item of arr) {
      const t = scalarText(f.array.input, item);
      if (t !== undefined) items.push(formEncode(t));
    }
    if (items.length === 0) continue;
    if (f.array.style === "repeat") for (const it of items) out.push(`${name}=${it}`);
    else out.push(`${name}=${items.join(SEPARATOR[f.array.style])}`);
  }
  return out.join("&");
}

const SEPARATOR = { comma: ",", pipe: "%7C", space: "%20" } as const;

// Fetch refuses these anyway; refusing first gives an error that names the field.
const HEADER_FORBIDDEN = /[\0-\x08\x0A-\x1F\x7F]/;

/**
 * A header value, or undefined if a value is absent. CR, LF, NUL (and other controls) are refused;
 * non-ASCII text is sent as UTF-8 bytes (header strings are byte strings; never mixed with Latin-1).
 */
export function headerValue(header: string, parts: Part[], vals: Values): string | undefined {
  let out = "";
  for (const p of parts) {
    const t = partText(p, vals);
    if (t === undefined) return undefined;
    if (HEADER_FORBIDDEN.test(t)) {
      throw new ToolFault(`${describe(p)} cannot go in header ${header}: it contains CR, LF, NUL or another control character`);
    }
    out += t;
  }
  return /[^\x00-\x7F]/.test(out) ? Buffer.from(wellFormed(out), "utf8").toString("latin1") : out;
}

const ABSENT = Symbol("absent");

/** Builds a JSON body value; undefined when the whole body is an absent input. */
export function jsonBody(t: JsonTemplate, vals: Values): Json | undefined {
  const v = build(t, vals);
  return v === ABSENT ? undefined : v;
}

function build(t: JsonTemplate, vals: Values): Json | typeof ABSENT {
  if ("json" in t) return t.json;
  if ("input" in t) {
    const v = arg(vals, t.input);
    return v === undefined ? ABSENT : (v as Json); // validated against the input schema already
  }
  if ("secret" in t) return vals.secrets.get(t.secret) ?? ABSENT;
  if ("text" in t) return render(t.text, vals, same) ?? ABSENT;
  if ("array" in t) {
    const out: Json[] = [];
    for (const el of t.array) {
      const v = build(el, vals);
      if (v !== ABSENT) out.push(v);
    }
    return out;
  }
  const obj: { [k: string]: Json } = {};
  for (const [k, el] of t.object) {
    const v = build(el, vals);
    // defineProperty: a "__proto__" key stays an ordinary member
    if (v !== ABSENT) Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return obj;
}
