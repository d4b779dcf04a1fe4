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
    let b64 = all.toString("base64").replace(/=+$/, "");
    if (all.length % 3 !== 0) b64 = b64.slice(0, -1); // the last char also depends on what follows
    const core = b64.slice([0, 2, 3][offset]); // chars that mix in the preceding bytes
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
 * Decodes escapes into a view that remembers where each character came from, finds secrets in
 * the view, and replaces the whole original spans they cover.
 */
function redactInView(s: string, escape: RegExp, decode: (m: string) => string, secretRe: RegExp): string {
  let view = "";
  const from: number[] = [];
  const to: number[] = [];
  let last = 0;
  const plain = (end: number) => {
    for (let i = last; i < end; i++) (view += s[i]), from.push(i), to.push(i + 1);
  };
  escape.lastIndex = 0;
  for (let m = escape.exec(s); m; m = escape.exec(s)) {
    plain(m.index);
    const d = decode(m[0]);
    const end = m.index + m[0].length;
    for (let k = 0; k < d.length; k++) (view += d[k]), from.push(m.index), to.push(end);
    last = end;
  }
  if (last === 0) return s;
  plain(s.length);
  const spans: [number, number][] = [];
  secretRe.lastIndex = 0;
  for (let m = secretRe.exec(view); m; m = secretRe.exec(view)) {
    spans.push([from[m.index]!, to[m.index + m[0].length - 1]!]);
  }
  if (spans.length === 0) return s;
  let out = "";
  let at = 0;
  for (const [a, b] of spans) {
    if (a < at) continue; // overlaps the previous span, already gone
    out += s.slice(at, a) + REDACTED;
    at = b;
  }
  return out + s.slice(at);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
