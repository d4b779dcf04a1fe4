// One sentence per refused pattern construct, as the tool contract promises. Shared by the call-time
// tool and by build-time checks of spec schemas, so both say the same thing.
import { clipText } from "../../../runtime/clip.js";
import type { PyRegexRefusal } from "./translate.js";

const WHY: Record<Exclude<PyRegexRefusal["kind"], "invalid">, string> = {
  "inline-flags": "uses an inline flag group; patterns here take no inline flags such as (?i) or (?s:...)",
  "look-behind": "uses a look-behind (?<= or (?<!, which patterns here do not support",
  backreference: "uses a backreference (\\1 or (?P=name)), which patterns here do not support",
  "atomic-group": "uses an atomic group (?>...), which patterns here do not support",
  possessive: "uses a possessive quantifier (*+, ++, ?+ or {m,n}+), which patterns here do not support",
  conditional: "uses a conditional group (?(...)...), which patterns here do not support",
  "named-character": "uses a named character \\N{...}; write the character itself or \\uXXXX instead",
};

/** The refusal sentence for a pattern; `where` names its place, e.g. `at #/properties/id/pattern`. */
export function patternRefusalSentence(pattern: string, refusal: PyRegexRefusal, where: string): string {
  const quoted = JSON.stringify(clipText(pattern, 200));
  if (refusal.kind === "invalid") {
    return `Refused: the pattern ${quoted} ${where} is not a valid Python re pattern (${refusal.detail} at position ${refusal.position}).`;
  }
  return `Refused: the pattern ${quoted} ${where} ${WHY[refusal.kind]} (found ${JSON.stringify(refusal.detail)} at position ${refusal.position}).`;
}
