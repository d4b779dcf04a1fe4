// Secret redaction for everything an upstream sends back. Upstreams echo secrets in many
// spellings (error pages, debug endpoints, echoed auth headers), so each secret is searched
// in every common encoding, in one pass, before any select expression can see the data.
import type { Json } from "../../runtime/types.js";
import { formEncode } from "./encode.js";

export const REDACTED = "[REDACTED]";

export interface Redactor {
  text(s: string): string;
  /** Redacts every string and key of parsed JSON (catches escapes no text form anticipates). */
  json(v: Json): Json;
}

const identity: Redactor = { text: (s) => s, json: (v) => v };

/** The spellings of one secret an upstream is likely to echo. */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const add = (f: string) => {
    forms.add(f);
    forms.add(f.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()));
  };
  try {
    add(encodeURIComponent(secret));
    add(encodeURI(secret));
    add(formEncode(secret));
  } catch {
    // a lone surrogate cannot be percent-encoded by anyone; nothing to add
  }
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(json.replace(/\//g, "\\/"));
  const ascii = json.replace(/[^\x20-\x7E]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  forms.add(ascii);
  forms.add(ascii.replace(/\\u([0-9a-f]{4})/g, (_, h: string) => "\\u" + h.toUpperCase()));
  forms.add(secret.replace(/[&<>"']/g, (c) => HTML[c]!));
  for (const core of base64Cores(Buffer.from(secret, "utf8"))) {
    forms.add(core);
    forms.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  forms.delete("");
  return [...forms];
}

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * The base64 characters that depend only on the secret's bytes, for each of the three byte
 * alignments it can have inside a larger encoded value (e.g. "user:secret" in Basic auth).
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const all = Buffer.concat([Buffer.alloc(offset), bytes]);
    const unpadded = all.toString("base64").replace(/=+$/, "");
    const start = [0, 2, 3][offset]; // chars that mix in the preceding bytes
    // The last char also depends on what follows, unless nothing follows: both forms, the longer wins.
    if (all.length % 3 !== 0) cores.push(unpadded.slice(start));
    const core = (all.length % 3 !== 0 ? unpadded.slice(0, -1) : unpadded).slice(start);
    if (core.length >= 4) cores.push(core);
  }
  // the whole, padded encoding too, so a bare base64 echo leaves no tail behind
  cores.push(bytes.toString("base64"));
  return cores;
}

export function makeRedactor(secrets: Iterable<string>): Redactor {
  const forms = new Set<string>();
  for (const s of secrets) if (s !== "") for (const f of secretForms(s)) forms.add(f);
  if (forms.size === 0) return identity;
  const sorted = [...forms].sort((a, b) => b.length - a.length); // longest spelling wins
  const re = new RegExp(sorted.map(escapeRegExp).join("|"), "g");
  const text = (input: string) => {
    re.lastIndex = 0;
    let s = re.test(input) ? input.replace(re, REDACTED) : input;
    // Mixed spellings (some characters escaped, some not) only show once escapes are decoded.
    if (s.includes("\\")) s = redactInView(s, JSON_ESCAPE, decodeJsonEscape, re);
    if (s.includes("%")) s = redactInView(s, PERCENT_CHAR, decodePercent, re);
    // Markup and framing: tags between characters, numeric entities, base64 wrapped in lines,
    // UTF-16 text read as UTF-8 (a NUL beside every ASCII character).
    if (MARKUP_HINT.test(s)) s = redactInView(s, MARKUP, decodeMarkup, re);
    return s;
  };
  const json = (v: Json): Json => {
    if (typeof v === "string") return text(v);
    if (v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) return v.map(json);
    const out: { [k: string]: Json } = {};
    for (const [k, el] of Object.entries(v)) {
      Object.defineProperty(out, text(k), { value: json(el), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return { text, json };
}

// One escape sequence = one decoded character (a UTF-8 sequence for percent-escapes).
const JSON_ESCAPE = /\\(?:u[0-9A-Fa-f]{4}|["\\/bfnrt])/g;
const PERCENT_CHAR = /%[0-7][0-9A-Fa-f]|%[CDcd][0-9A-Fa-f]%[89ABab][0-9A-Fa-f]|%[Ee][0-9A-Fa-f](?:%[89ABab][0-9A-Fa-f]){2}|%[Ff][0-7](?:%[89ABab][0-9A-Fa-f]){3}/g;
const SIMPLE: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

const MARKUP = /<[^<>]{0,256}>|&#(?:[0-9]{1,7}|[xX][0-9a-fA-F]{1,6});|&(?:amp|lt|gt|quot|apos);|[\r\n\0]/g;
const MARKUP_HINT = /[<&\r\n\0]/;
const NAMED: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" };

/** A tag, line break or NUL stands for nothing; an entity for its character. */
function decodeMarkup(m: string): string {
  if (m.length === 1 || m[0] === "<") return "";
  if (m[1] !== "#") return NAMED[m] ?? m;
  const code = m[2] === "x" || m[2] === "X" ? parseInt(m.slice(3, -1), 16) : parseInt(m.slice(2, -1), 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
}

function decodeJsonEscape(m: string): string {
  return m[1] === "u" ? String.fromCharCode(parseInt(m.slice(2), 16)) : SIMPLE[m[1]!]!;
}
function decodePercent(m: string): string {
  try {
    return decodeURIComponent(m);
  } catch {
    return m;
  }
}

/**
 * Decodes escapes into a view that remembers where each piece came from, finds secrets in the
 * view, and replaces the whole original spans they cover. Linear in the text: the view is kept
 * as segments (plain runs and single escapes), mapped back by binary search.
 */
function redactInView(s: string, escape: RegExp, decode: (m: string) => string, secretRe: RegExp): string {
  const pieces: string[] = [];
  const viewAt: number[] = []; // where each segment starts in the view
  const origAt: number[] = []; // ... and in the original
  const origEnd: number[] = [];
  const isEscape: boolean[] = [];
  let v = 0;
  let last = 0;
  const push = (text: string, from: number, to: number, esc: boolean) => {
    pieces.push(text), viewAt.push(v), origAt.push(from), origEnd.push(to), isEscape.push(esc);
    v += text.length;
  };
  escape.lastIndex = 0;
  for (let m = escape.exec(s); m; m = escape.exec(s)) {
    if (m.index > last) push(s.slice(last, m.index), last, m.index, false);
    last = m.index + m[0].length;
    push(decode(m[0]), m.index, last, true);
  }
  if (last === 0) return s;
  if (last < s.length) push(s.slice(last), last, s.length, false);
  const view = pieces.join("");
  // Original offset of view position i: an escape maps as a whole (its start, or its end).
  const toOrig = (i: number, end: boolean) => {
    let lo = 0;
    let hi = viewAt.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (viewAt[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    if (isEscape[lo]) return end ? origEnd[lo]! : origAt[lo]!;
    return origAt[lo]! + (i - viewAt[lo]!) + (end ? 1 : 0);
  };
  let out = "";
  let at = 0;
  secretRe.lastIndex = 0;
  for (let m = secretRe.exec(view); m; m = secretRe.exec(view)) {
    const a = toOrig(m.index, false);
    if (a < at) continue; // overlaps the previous span, already gone
    out += s.slice(at, a) + REDACTED;
    at = toOrig(m.index + m[0].length - 1, true);
  }
  return at === 0 && out === "" ? s : out + s.slice(at);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
