// Python 3 `re` (str patterns, no flags) character classes written as JavaScript `u`-mode class bodies.
// Measured equal over all Unicode scalars (see docs/validate-json.md): JS `\d \w \s` are ASCII-only, so
// they are never emitted as such.

/** Python `\d`: Unicode decimal digits. */
export const DIGIT_BODY = "\\p{Nd}";
/** Python `\w`: letters, numbers and underscore (str.isalnum() plus "_"). */
export const WORD_BODY = "\\p{L}\\p{N}_";
/** Python `\s`: str.isspace() characters, which differ from JS `\s` (no U+FEFF, adds U+001C-U+001F, U+0085). */
export const SPACE_BODY = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

export type Category = "d" | "D" | "w" | "W" | "s" | "S";

/** A category as a stand-alone JS atom. */
export function categoryAtom(c: Category): string {
  switch (c) {
    case "d": return "\\p{Nd}";
    case "D": return "\\P{Nd}";
    case "w": return `[${WORD_BODY}]`;
    case "W": return `[^${WORD_BODY}]`;
    case "s": return `[${SPACE_BODY}]`;
    case "S": return `[^${SPACE_BODY}]`;
  }
}

/** Class body text when the category can sit inside a positive or negated [...]; null when it is a complement. */
export function categoryBody(c: Category): string | null {
  switch (c) {
    case "d": return DIGIT_BODY;
    case "D": return "\\P{Nd}";
    case "w": return WORD_BODY;
    case "s": return SPACE_BODY;
    default: return null;
  }
}

const W = `[${WORD_BODY}]`;
/** Python `\b` on Unicode word characters (look-behind is fine in the output, only the source forbids it). */
export const WORD_BOUNDARY = `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;
/** Python `\B`; sre never matches it on an empty string (Python 3.11 behaviour, kept by the table test). */
export const NOT_WORD_BOUNDARY = `(?:(?<=${W})(?=${W})|(?<!${W})(?!${W})(?!^$))`;

const SYNTAX = new Set("^$\\.*+?()[]{}|/".split(""));

/** One code point as JS `u`-mode pattern text; readable where that is safe, \u{...} otherwise. */
export function literal(cp: number, inClass: boolean): string {
  const ch = String.fromCodePoint(cp);
  if (cp >= 0x20 && cp < 0x7f) {
    if (SYNTAX.has(ch) || (inClass && ch === "-")) return "\\" + ch;
    return ch;
  }
  // Controls, surrogates, and format/line-separator characters stay visible as escapes.
  if (cp < 0xa0 || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0x2028 || cp === 0x2029 || cp === 0xfeff) {
    return `\\u{${cp.toString(16)}}`;
  }
  return ch;
}
