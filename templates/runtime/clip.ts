// Quoting user values back to the model: bounded, and never splitting a code point.

/** Clips to at most `max` code points, marking the cut and the whole length. */
export function clipText(text: string, max = 200): string {
  if (text.length <= max) return text; // fewer units means fewer code points
  let units = 0;
  let points = 0;
  while (units < text.length && points < max) {
    const code = text.codePointAt(units)!;
    units += code > 0xffff ? 2 : 1;
    points += 1;
  }
  if (units >= text.length) return text;
  return `${text.slice(0, units)}… (clipped; ${[...text].length} characters in all)`;
}

/** A value as JSON text, clipped for quoting in feedback. */
export function quoteValue(value: unknown, max = 200): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : JSON.stringify(value);
  } catch {
    // Too deep for the stack, a cycle or a BigInt: name the kind of value instead of quoting it.
    text = Array.isArray(value) ? "[…] (an array too deeply nested to quote)" : typeof value === "object" && value !== null ? "{…} (an object too deeply nested to quote)" : typeof value;
  }
  return clipText(text, max);
}
