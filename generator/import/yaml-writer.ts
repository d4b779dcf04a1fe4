// A small YAML writer for plain JSON data (objects, arrays, strings, finite numbers, booleans, null),
// built for `kervan import`'s output: the `yaml` package's Document model costs ~0.7 s on a large
// API (GitHub's) where this writes the same data in a few tens of milliseconds. The `yaml` package
// stays the reader everywhere; the tests parse this writer's output back with it and compare data.
//
// What it writes, for a reviewer:
// - block style; a collection whose flow text is short (the estimate below) is written in flow style
//   on one line (`{ type: string }`, `[ a, b ]`) unless an entry within it carries a comment;
// - comment lines above list items and above map keys, and a header comment block;
// - strings plain when a conservative test passes (SAFE below; never text a YAML 1.2 or 1.1 reader
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

/** Splits rendered scalar text into lines of at most `first` then `rest` characters where it can. */
function fold(text: string, first: number, rest: number): string[] {
  const lines: string[] = [];
  let start = 0;
  let prev = -1;
  let room = first;
  for (let i = text.indexOf(" "); i !== -1; i = text.indexOf(" ", i + 1)) {
    if (!foldable(text, i)) continue;
    if (i - start > room && prev > start) {
      lines.push(text.slice(start, prev));
      start = prev + 1;
      room = rest;
    }
    prev = i;
  }
  if (text.length - start > room && prev > start) {
    lines.push(text.slice(start, prev));
    start = prev + 1;
  }
  lines.push(text.slice(start));
  return lines;
}

const isObject = (v: unknown): v is Record<string, Json | undefined> => typeof v === "object" && v !== null && !Array.isArray(v);
const entries = (o: Record<string, Json | undefined>) => Object.keys(o).filter((k) => o[k] !== undefined);
/** Comment text on one line each: line breaks split it, other characters YAML forbids are escaped. */
const commentLines = (lines: readonly string[]) => lines.flatMap((l) => l.split(/\r\n|[\r\n\u2028\u2029\x85]/)).map((l) => l.replace(FORBIDDEN_ALL, hex));

export function writeYaml(data: Json, options: WriteOptions = {}): string {
  const out: string[] = [];
  const path: Array<string | number> = [];
  const commentAt = options.commentAt ?? (() => undefined);
  const pad = (n: number) => " ".repeat(n);

  /** The flow text of a collection within FLOW_BUDGET with no commented entry, else undefined. */
  function flowText(v: Json): string | undefined {
    let size = 0;
    const walk = (v: Json | undefined): string | undefined => {
      if (Array.isArray(v)) {
        size += 2;
        const items: string[] = [];
        for (let i = 0; i < v.length && size <= FLOW_BUDGET; i++) {
          path.push(i);
          const text = commentAt(path) ? undefined : walk(v[i]);
          path.pop();
          if (text === undefined) return undefined;
          items.push(text);
        }
        return size > FLOW_BUDGET ? undefined : items.length ? `[ ${items.join(", ")} ]` : "[]";
      }
      if (isObject(v)) {
        size += 2;
        const pairs: string[] = [];
        for (const k of entries(v)) {
          size += k.length + 3;
          if (size > FLOW_BUDGET) return undefined;
          path.push(k);
          const text = commentAt(path) ? undefined : walk(v[k]);
          path.pop();
          if (text === undefined) return undefined;
          pairs.push(`${scalar(k, true)}: ${text}`);
        }
        return size > FLOW_BUDGET ? undefined : pairs.length ? `{ ${pairs.join(", ")} }` : "{}";
      }
      size += String(v).length + 3;
      return size > FLOW_BUDGET ? undefined : scalar(v, true);
    };
    return walk(v);
  }

  /** Writes `v` after `lead` (a key and its colon, or a list dash); nested blocks at `indent`. */
  function value(lead: string, v: Json | undefined, indent: number, dash: boolean): void {
    if (Array.isArray(v) || isObject(v)) {
      const flow = flowText(v);
      if (flow !== undefined) out.push(`${lead} ${flow}`);
      else if (dash) block(v, indent, `${lead} `);
      else {
        out.push(lead);
        block(v, indent, pad(indent));
      }
      return;
    }
    const text = scalar(v, false);
    if (typeof v !== "string" || lead.length + 1 + text.length <= WIDTH) {
      out.push(`${lead} ${text}`);
      return;
    }
    const lines = fold(text, Math.max(WIDTH - lead.length - 1, MIN_CONTENT / 2), Math.max(WIDTH - indent, MIN_CONTENT));
    out.push(`${lead} ${lines[0]}`);
    for (let i = 1; i < lines.length; i++) out.push(pad(indent) + lines[i]);
  }

  /** A block list or map at `indent`; its first line starts with `first` (a dash when it is a list item). */
  function block(v: Json[] | Record<string, Json | undefined>, indent: number, first: string): void {
    const keys = Array.isArray(v) ? null : entries(v);
    const count = keys ? keys.length : (v as Json[]).length;
    for (let i = 0; i < count; i++) {
      const key = keys ? keys[i] : i;
      let start = i === 0 ? first : pad(indent);
      path.push(key);
      const comments = commentAt(path);
      if (comments?.length) {
        if (start.trim()) {
          out.push(start.trimEnd());
          start = pad(indent);
        }
        for (const line of commentLines(comments)) out.push(`${pad(indent)}#${line}`);
      }
      const item = (v as Record<string | number, Json | undefined>)[key];
      if (typeof key === "number") value(`${start}-`, item ?? null, indent + 2, true);
      else {
        const k = scalar(key, false);
        if (k.length <= LONG_KEY) value(`${start}${k}:`, item, indent + 2, false);
        else {
          out.push(`${start}? ${k}`);
          value(`${pad(indent)}:`, item, indent + 2, false);
        }
      }
      path.pop();
    }
  }

  if (options.header?.length) out.push(...commentLines(options.header).map((l) => `#${l}`), "");
  if (Array.isArray(data) ? data.length : isObject(data) ? entries(data).length : 0) block(data as Json[], 0, "");
  else out.push(typeof data === "string" ? quoted(data) : Array.isArray(data) ? "[]" : isObject(data) ? "{}" : scalar(data, false));
  return `${out.join("\n")}\n`;
}
