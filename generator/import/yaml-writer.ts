// A small YAML writer for plain JSON data (objects, arrays, strings, finite numbers, booleans, null),
// built for `kervan import`'s output: the `yaml` package's Document model takes ~0.75 s for a large
// API (GitHub's, 3.4 MB of YAML) that this writes in ~0.13 s (~0.06 s once warm). The `yaml` package
// stays the reader everywhere; the tests parse this writer's output back with it and with kervan's
// loader, and compare data (a `<<` key whose value is not a mapping cannot pass kervan's loader,
// quoted or not: the writer quotes it and the loader refuses it, as it would a hand-written one).
//
// What it writes, for a reviewer:
// - block style; a collection whose flow text is short (the estimate below) is written in flow style
//   on one line (`{ type: string }`, `[ a, b ]`) unless an entry within it carries a comment;
// - comment lines above list items and above map keys, and a header comment block;
// - strings plain when a conservative test passes (plainSafe below; never text a YAML 1.2 or 1.1 reader
//   would take for a boolean, null, number or date), otherwise double-quoted with JSON escapes plus
//   `\uXXXX` for what YAML forbids raw (C1 controls, DEL, U+2028/2029, U+FEFF, U+FFFE/FFFF, lone
//   surrogates). Strings with line breaks are double-quoted with `\n` escapes (exact, and one rule);
// - a long scalar folded over several lines near WIDTH columns, plain or double-quoted: a fold is
//   made only at one space between two non-space characters, never before a word starting with an
//   indicator nor after a backslash, continuation lines indented deeper than the key. YAML reads the
//   line break back as that one space. Keys are never folded; a key over 1000 characters is written
//   as an explicit `? key` (YAML limits implicit keys to 1024).
// - an object entry whose value is undefined is left out, as in JSON; undefined in an array is null.
import type { Json } from "../../templates/runtime/types.js";
import { isObject } from "../shared/object.js";

export type Path = ReadonlyArray<string | number>;

export interface WriteOptions {
  /** Comment lines written first (each after `#`), then a blank line. */
  header?: string[];
  /** Comment lines (each after `#`) above the list item or map key at `path`, if any. */
  commentAt?: (path: Path) => readonly string[] | undefined;
}

const WIDTH = 110;
const MIN_CONTENT = 40;
/** Flow text estimate (each scalar plus 3, each collection plus 2) up to which a collection is flow. */
const FLOW_BUDGET = 70;
const LONG_KEY = 1000;

const FORBIDDEN = /[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, "g");
/** Starts with an indicator, a blank or `...` (a document end at a line's start); ends blank or with ':'; holds ': ', ' #' or a forbidden character. */
const UNSAFE = new RegExp(`^$|^[-?:,[\\]{}#&*!|>'"%@\`\\s]|^\\.\\.\\.|[\\s:]$|: | #|${FORBIDDEN.source}`);
/** Text some YAML reader takes as another type: booleans and null of YAML 1.1 and 1.2, merge/value keys, numbers in any notation, dates. */
const TYPED = new RegExp(
  [
    "^(?:true|false|yes|no|on|off|y|n|null|~|<<|=)$",
    "^[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-f_]+)$",
    "^[-+]?(?:[0-9][0-9_,]*(?:\\.[0-9_]*)?|\\.[0-9_]+)(?:e[-+]?[0-9_]+)?$",
    "^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?$",
    "^[-+]?\\.?(?:inf|infinity|nan)$",
    "^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:$|[t ])",
  ].join("|"),
  "i",
);
const FLOW_INDICATOR = /[,[\]{}]/;
/** May a folded line start with this character? Not an indicator nor a blank. */
const NO_LINE_START = /[-?:,[\]{}#&*!|>'"%@`\s]/;

/** May `s` be written without quotes (`flow`: inside a flow collection)? */
export function plainSafe(s: string, flow: boolean): boolean {
  return !UNSAFE.test(s) && !TYPED.test(s) && !(flow && FLOW_INDICATOR.test(s));
}

const hex = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Double-quoted: JSON's escapes (which cover `"`, `\`, C0 controls and lone surrogates) plus the rest YAML forbids raw. */
export function quoted(s: string): string {
  return JSON.stringify(s).replace(/[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/g, hex);
}

function number(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`YAML writer: ${n} is not JSON data`);
  return Object.is(n, -0) ? "-0" : String(n);
}

function scalar(v: Json | undefined, flow: boolean): string {
  if (typeof v === "string") return plainSafe(v, flow) ? v : quoted(v);
  if (typeof v === "number") return number(v);
  if (typeof v === "boolean") return String(v);
  if (v === null || v === undefined) return "null";
  throw new Error(`YAML writer: ${typeof v} is not JSON data`);
}

/** Where a long rendered scalar may be folded: a space between non-blanks, not after `\`, not before an indicator. */
function foldable(text: string, i: number): boolean {
  const before = text[i - 1];
  const after = text[i + 1];
  return before !== undefined && after !== undefined && before !== "\\" && !/\s/.test(before) && !NO_LINE_START.test(after);
}

/** Splits rendered scalar text into lines of at most `first` then `rest` characters where it can (greedy; a word longer than a line stays whole). */
function fold(text: string, first: number, rest: number): string[] {
  const lines: string[] = [];
  let start = 0;
  let room = first;
  while (text.length - start > room) {
    let cut = -1;
    for (let i = text.lastIndexOf(" ", start + room); i > start && cut < 0; i = text.lastIndexOf(" ", i - 1)) if (foldable(text, i)) cut = i;
    for (let i = text.indexOf(" ", start + room + 1); i !== -1 && cut < 0; i = text.indexOf(" ", i + 1)) if (foldable(text, i)) cut = i;
    if (cut < 0) break;
    lines.push(text.slice(start, cut));
    start = cut + 1;
    room = rest;
  }
  lines.push(text.slice(start));
  return lines;
}

/** Comment text on one line each: line breaks split it, other characters YAML forbids are escaped. */
const commentLines = (lines: readonly string[]) => lines.flatMap((l) => l.split(/\r\n|[\r\n\u2028\u2029\x85]/)).map((l) => l.replace(FORBIDDEN_ALL, hex));

/** One writing: the lines so far, where it is, and each string's rendering (texts repeat a lot). */
interface Writer {
  out: string[];
  path: Array<string | number>;
  commentAt: (path: Path) => readonly string[] | undefined;
  block: Map<string, string>;
  flow: Map<string, string>;
  /** Indentation strings by depth. */
  pads: string[];
}

const pad = (w: Writer, n: number) => (w.pads[n] ??= " ".repeat(n));

function text(w: Writer, v: Json | undefined, flow: boolean): string {
  if (typeof v !== "string") return scalar(v, flow);
  const known = (flow ? w.flow : w.block).get(v);
  if (known !== undefined) return known;
  const made = plainSafe(v, flow) ? v : quoted(v);
  (flow ? w.flow : w.block).set(v, made);
  return made;
}

/** What is left of `room` once `v` is written in flow style (the estimate of FLOW_BUDGET), or -1: too long, or an entry carries a comment. */
function flowRoom(w: Writer, v: Json | undefined, room: number): number {
  if (Array.isArray(v)) {
    room -= 2;
    for (let i = 0; i < v.length && room >= 0; i++) {
      w.path.push(i);
      room = w.commentAt(w.path) ? -1 : flowRoom(w, v[i], room);
      w.path.pop();
    }
    return room;
  }
  if (isObject<Json | undefined>(v)) {
    room -= 2;
    for (const k in v) {
      if (room < 0) break;
      if (v[k] === undefined) continue;
      w.path.push(k);
      room = w.commentAt(w.path) ? -1 : flowRoom(w, v[k], room - k.length - 3);
      w.path.pop();
    }
    return room;
  }
  return room - (typeof v === "string" ? v.length : String(v).length) - 3;
}

function flowText(w: Writer, v: Json | undefined): string {
  if (Array.isArray(v)) return v.length ? `[ ${v.map((x) => flowText(w, x)).join(", ")} ]` : "[]";
  if (!isObject<Json | undefined>(v)) return text(w, v, true);
  const pairs: string[] = [];
  for (const k in v) if (v[k] !== undefined) pairs.push(`${text(w, k, true)}: ${flowText(w, v[k])}`);
  return pairs.length ? `{ ${pairs.join(", ")} }` : "{}";
}

/** Writes `v` after `lead` (a key and its colon, or a list dash); nested blocks at `indent`. */
function value(w: Writer, lead: string, v: Json | undefined, indent: number, dash: boolean): void {
  if (typeof v === "object" && v !== null) {
    if (flowRoom(w, v, FLOW_BUDGET) >= 0) w.out.push(`${lead} ${flowText(w, v)}`);
    else if (dash) block(w, v, indent, `${lead} `);
    else {
      w.out.push(lead);
      block(w, v, indent, pad(w, indent));
    }
    return;
  }
  const t = text(w, v, false);
  if (typeof v !== "string" || lead.length + 1 + t.length <= WIDTH) {
    w.out.push(`${lead} ${t}`);
    return;
  }
  const lines = fold(t, Math.max(WIDTH - lead.length - 1, MIN_CONTENT / 2), Math.max(WIDTH - indent, MIN_CONTENT));
  w.out.push(`${lead} ${lines[0]}`);
  for (let i = 1; i < lines.length; i++) w.out.push(pad(w, indent) + lines[i]);
}

/** A block list or map at `indent`; its first line starts with `first` (a dash when it is a list item). */
function block(w: Writer, v: Json[] | Record<string, Json | undefined>, indent: number, first: string): void {
  let start = first;
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) start = entry(w, i, v[i], indent, start);
  else for (const key of Object.keys(v)) if (v[key] !== undefined) start = entry(w, key, v[key], indent, start);
}

/** One list item (a numeric key) or map entry of a block; returns how the next one starts. */
function entry(w: Writer, key: string | number, item: Json | undefined, indent: number, first: string): string {
  let start = first;
  w.path.push(key);
  const comments = w.commentAt(w.path);
  if (comments?.length) {
    if (start.trim()) w.out.push(start.trimEnd());
    start = pad(w, indent);
    for (const line of commentLines(comments)) w.out.push(`${start}#${line}`);
  }
  if (typeof key === "number") value(w, `${start}-`, item ?? null, indent + 2, true);
  else {
    const k = text(w, key, false);
    if (k.length <= LONG_KEY) value(w, `${start}${k}:`, item, indent + 2, false);
    else {
      w.out.push(`${start}? ${k}`);
      value(w, `${pad(w, indent)}:`, item, indent + 2, false);
    }
  }
  w.path.pop();
  return pad(w, indent);
}

export function writeYaml(data: Json, options: WriteOptions = {}): string {
  const w: Writer = { out: [], path: [], commentAt: options.commentAt ?? (() => undefined), block: new Map(), flow: new Map(), pads: [] };
  if (options.header?.length) w.out.push(...commentLines(options.header).map((l) => `#${l}`), "");
  const entries = Array.isArray(data) ? data.length : isObject<Json | undefined>(data) ? Object.values(data).filter((x) => x !== undefined).length : 0;
  if (entries && typeof data === "object" && data !== null) block(w, data, 0, "");
  else w.out.push(typeof data === "string" ? quoted(data) : Array.isArray(data) ? "[]" : isObject<Json | undefined>(data) ? "{}" : scalar(data, false));
  return `${w.out.join("\n")}\n`;
}
