// Code as its own type. Emitters build generated code from `Code` values: the `_` tagged template
// inserts a Code value as it is and any other value as an escaped JavaScript literal, so user text
// can enter generated code only as a literal, an identifier made by ident(), or comment text made
// safe by comment()/docComment(). (The idea follows ajv's lib/compile/codegen.)

/** A piece of generated code. Only this module makes one from raw text. */
export class Code {
  /** @internal */
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** An identifier in generated code. */
export class Name extends Code {}

/** What `_` and `join` accept: code as it is, anything JSON-like as a literal. */
export type CodeArg = Code | string | number | boolean | null | undefined | readonly unknown[] | { readonly [k: string]: unknown };

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await arguments eval undefined NaN Infinity").split(" "),
);

/** The tagged template: `_\`f(${config})\``; a Code value is inserted as it is, anything else as a literal. */
export function _(strings: TemplateStringsArray, ...values: CodeArg[]): Code {
  let text = strings[0];
  values.forEach((v, i) => (text += (v instanceof Code ? v.toString() : literal(v).toString()) + strings[i + 1]));
  return new Code(text);
}

/** A fixed identifier written by the generator's author (never user text): refused unless it is one. */
export function name(text: string): Name {
  if (!IDENT.test(text)) throw new Error(`not an identifier: ${JSON.stringify(text)}`);
  return new Name(text);
}

/** A JavaScript identifier from any user name: invalid characters become _, never empty, never reserved. */
export function ident(text: string): Name {
  let id = text.replace(/[^A-Za-z0-9_$]/g, "_");
  if (!id || /^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  return new Name(id);
}

/** PascalCase type name from a tool name. */
export function typeName(text: string): Name {
  const parts = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return ident(parts.map((p) => p[0].toUpperCase() + p.slice(1)).join("") || "Tool");
}

/** Code joined with a separator. */
export function join(parts: readonly Code[], separator = ", "): Code {
  return new Code(parts.map(String).join(separator));
}

/** A JSON-compatible value as a JavaScript literal (line separators escaped), pretty when asked. */
export function literal(value: unknown, indent?: number): Code {
  const text = JSON.stringify(value, null, indent);
  if (text === undefined) return new Code("undefined");
  return new Code(text.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029"));
}

/** Control characters, line and paragraph separators: what could end a comment line or confuse a reader. */
const UNSAFE_IN_COMMENT = /[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const escapeChar = (c: string) => (c === "\r" ? "\\r" : c === "\t" ? "\\t" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * Text for one `//` comment line: every line break and control character shown as an escape, so
 * the comment cannot end early (a newline in a spec's file name would otherwise start code).
 */
export function commentText(text: string): string {
  return text.replace(/\n/g, "\\n").replace(UNSAFE_IN_COMMENT, escapeChar);
}

/** A `//` comment line. */
export function comment(text: string): Code {
  return new Code(`// ${commentText(text)}`);
}

/** Text safe inside a `/** *\/` comment: the end marker broken, line separators made plain newlines. */
export function docComment(text: string): string {
  return text
    .replace(/\*\//g, "*\\/")
    .replace(/\r\n?|\u2028|\u2029/g, "\n")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, escapeChar);
}

/**
 * A JSON-compatible value as readable TypeScript: identifier keys unquoted, short arrays of
 * scalars on one line, two-space indentation. Strings and keys still go through literal().
 */
export function code(value: unknown, indent = ""): Code {
  return new Code(pretty(value, indent));
}

function pretty(value: unknown, indent: string): string {
  if (value instanceof Code) return value.toString();
  if (value === null || typeof value !== "object") return literal(value).toString();
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    const items = value.map((v) => pretty(v, inner));
    const flat = oneLine(items, "[", "]", value.every((v) => v === null || typeof v !== "object") ? 100 : 60);
    return flat ?? `[\n${items.map((i) => inner + i).join(",\n")},\n${indent}]`;
  }
  const all: [string, unknown][] = Object.entries(value);
  const entries = all.filter(([, v]) => v !== undefined);
  if (!entries.length) return "{}";
  const fields = entries.map(([k, v]) => `${IDENT.test(k) && !RESERVED.has(k) ? k : literal(k)}: ${pretty(v, inner)}`);
  return oneLine(fields, "{ ", " }", 60) ?? `{\n${fields.map((f) => inner + f).join(",\n")},\n${indent}}`;
}

/**
 * Parts on one line between open and close, when that line is at most `width` long and, past 60
 * (only lists of scalars go so far), breaks no line; otherwise undefined. The length is summed
 * before anything is joined: a large value is not joined again at every level of its nesting.
 */
function oneLine(parts: string[], open: string, close: string, width: number): string | undefined {
  let length = open.length + close.length + 2 * (parts.length - 1);
  for (const p of parts) if ((length += p.length) > width) return undefined;
  const flat = `${open}${parts.join(", ")}${close}`;
  return length <= 60 && flat.includes("\n") ? undefined : flat;
}

/** `{ a, b }` with one field a line; values are already code (multi-line ones indented here). */
export function objectCode(fields: readonly Code[]): Code {
  return new Code(`{\n  ${fields.map((f) => f.toString().replace(/\n/g, "\n  ")).join(",\n  ")},\n}`);
}
