// "Not JSON" feedback: where JSON.parse stopped and the likely cause. Nothing is repaired: a validator
// that fixed broken JSON would hide the model's mistake instead of reporting it.
import { clipText } from "../../runtime/clip.js";
import { locateJsonError } from "./json-locate.js";

export interface ParseFailure {
  /** UTF-16 offset in the parsed text where parsing failed. */
  position: number;
  line: number;
  column: number;
  cause: string;
}

function prevNonSpace(t: string, i: number): string {
  for (let j = i - 1; j >= 0; j--) if (!/\s/.test(t[j])) return t[j];
  return "";
}

function likelyCause(t: string, p: number): string {
  if (p >= t.trimEnd().length) return "the text ends before the JSON value does (truncated output, or an unclosed bracket or string)";
  const c = t[p];
  const before = prevNonSpace(t, p);
  if ((c === "}" || c === "]") && before === ",") return `trailing comma before "${c}"`;
  if (c === "'") return "single quotes; JSON strings and keys need double quotes";
  if (t.startsWith("//", p) || t.startsWith("/*", p)) return "a comment; JSON has no comments";
  if (/^(True|False|None)\b/.test(t.slice(p, p + 6))) return "a Python literal; JSON spells them true, false and null";
  if (/^(NaN|-?Infinity|undefined)\b/.test(t.slice(p, p + 10))) return "a value JSON cannot represent (NaN, Infinity or undefined)";
  if (/[A-Za-z_$]/.test(c) && (before === "{" || before === ",")) return "an unquoted property name; keys need double quotes";
  if (c === "\n" || c === "\t" || c < " ") return "a raw control character inside a string; write it as an escape such as \\n";
  if (before === "}" || before === "]" || before === '"' || /[0-9el]/.test(before)) return "a missing comma, or text after the JSON value";
  return `unexpected character ${JSON.stringify(c)}`;
}

/** Parses `text`; on failure says where and why. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; failure: ParseFailure } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const position = locateJsonError(text);
    const upTo = text.slice(0, position);
    const line = upTo.split("\n").length;
    const column = position - (upTo.lastIndexOf("\n") + 1) + 1;
    return { ok: false, failure: { position, line, column, cause: likelyCause(text, position) } };
  }
}

/** One sentence for a failure inside `what` (e.g. "the fenced code block"). */
export function describeFailure(what: string, text: string, f: ParseFailure): string {
  const near = clipText(text.slice(Math.max(0, f.position - 20), f.position + 20), 60);
  return `Not JSON: ${what} does not parse at line ${f.line}, column ${f.column} (position ${f.position}): ${f.cause}. Near: ${JSON.stringify(near)}.`;
}
