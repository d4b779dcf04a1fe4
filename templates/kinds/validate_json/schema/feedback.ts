// Feedback for the model: one primary failure first (where, which keyword, the value quoted and clipped
// to 200 characters), then the others, bounded so the answer stays readable.
import { clipText, quoteValue } from "../../../runtime/clip.js";
import type { PathNode, VError } from "./types.js";

const MAX_OTHERS = 9;

export function pointerOf(p: PathNode | null): string {
  const parts: string[] = [];
  for (let x = p; x; x = x.up) parts.push("/" + String(x.key).replace(/~/g, "~0").replace(/\//g, "~1"));
  return parts.reverse().join("");
}

function where(e: VError): string {
  const ptr = pointerOf(e.path);
  return ptr === "" ? "the document root" : clipText(ptr, 200);
}

function line(e: VError): string {
  let text = `at ${where(e)} (${e.keyword}, schema ${clipText(e.schemaPath, 200)}): ${e.message}`;
  if (!/found |has \d|: [\["{0-9tfn-]/.test(e.message) && e.keyword !== "required") text += `; value: ${quoteValue(e.value)}`;
  if (e.detail && e.detail.length > 0) text += `. Closest alternative fails ${line(e.detail[0])}`;
  return text;
}

/** The whole feedback text for a failed validation. */
export function formatFeedback(errors: VError[]): string {
  if (errors.length === 0) return "The document does not satisfy the schema.";
  const [first, ...rest] = errors;
  let text = `The document does not satisfy the schema ${line(first)}.`;
  if (rest.length) {
    const shown = rest.slice(0, MAX_OTHERS).map((e) => `- ${line(e)}`);
    const more = rest.length > MAX_OTHERS ? `\n(and ${rest.length - MAX_OTHERS} more)` : "";
    text += `\nAlso:\n${shown.join("\n")}${more}`;
  }
  return text;
}
