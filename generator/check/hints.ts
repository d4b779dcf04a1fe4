// Hints for the two YAML habits that most often turn a sensible spec into a puzzling diagnostic:
// - a comma inside a flow mapping ends the value: `{ description: File to read, relative to X }`
//   reads as a description "File to read" and a key "relative to X";
// - an unquoted value that looks like a number, a boolean or null is one: `-1` in argv is a number,
//   `version: 1.0` is the number 1.
// The load stage records both from the source text; a diagnostic at such a place gets the hint.
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";

function kind(text: string): string {
  if (/^(true|false)$/i.test(text)) return "a boolean";
  if (/^(null|~|)$/i.test(text)) return "null";
  return "a number";
}

export function addHints(spec: LoadedSpec, diagnostics: Diagnostic[]): void {
  for (const d of diagnostics) {
    if (d.location.file !== spec.file) continue;
    const pointer = d.location.pointer;
    const whole = spec.flowSplits?.[pointer];
    if (whole !== undefined) {
      d.notes = [...(d.notes ?? []), "inside { }, a comma ends a plain value, so the text after it became a key of its own"];
      d.suggestion = `quote the whole value: ${whole}`;
      continue;
    }
    // Only where text was wanted: a type complaint naming string.
    const text = spec.unquoted?.[pointer];
    if (text !== undefined && text !== "" && d.code === "KV203" && /\bstring\b/.test(d.message)) {
      d.notes = [...(d.notes ?? []), `YAML reads the unquoted ${text} as ${kind(text)}`];
      d.suggestion = `quote it to give text: '${text}'`;
    }
  }
}
