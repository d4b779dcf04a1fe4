// Spec-schema patterns are ECMA-262 (ajv checks them in the generated server), but many MCP
// clients validate with Python's `re`. validate_json's translator knows exactly where the two
// dialects part, so at build time each pattern is read as Python too: where the translation had to
// change its meaning, or Python cannot read it at all, the build warns with the reason.
import { translatePythonPattern } from "../../templates/kinds/validate_json/pyregex/translate.js";

// '$' before a final newline differs too, but on nearly every anchored pattern and only in the
// lax direction for a Python client (it accepts one trailing newline more): not worth a warning.
const DOLLAR = /\(\?=\\n\?\$\)/g;
const DIFFERENCES: [RegExp, string][] = [
  [/\\p\{Nd\}/, "\\d matches every Unicode digit in Python but only 0-9 here (write [0-9])"],
  [/\[\\p\{L\}\\p\{N\}_\]|\[\^\\p\{L\}\\p\{N\}_\]/, "\\w matches Unicode letters in Python but only [A-Za-z0-9_] here"],
  [/\\u1680|\\x1c-/, "\\s matches more whitespace in Python than here"],
  [/\\p\{L\}\\p\{N\}_\]\)|\(\?<!\[/, "\\b uses Unicode word characters in Python"],
];

/** Escapes that change nothing: `\.` and `.` inside a class, `\/` and `/`, `\-` and `-`. */
const plain = (p: string) => p.replace(/\\([^A-Za-z0-9])/g, "$1");

/** Why Python's `re` would read this pattern differently, or undefined when it reads it the same. */
export function pythonDifference(pattern: string): string | undefined {
  const t = translatePythonPattern(pattern);
  if (!t.ok) return `Python's re cannot use it as written (${t.detail})`;
  if (plain(t.js.replace(DOLLAR, "$")) === plain(pattern)) return undefined;
  const reasons = DIFFERENCES.filter(([re]) => re.test(t.js) && !re.test(pattern)).map(([, why]) => why);
  return reasons.length ? reasons.join("; ") : `Python reads it as ${t.js}`;
}
