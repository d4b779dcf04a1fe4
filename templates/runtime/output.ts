// Caps tool text so one call cannot flood a model's context; the marker says what was cut.

export function capText(text: string, max: number): string {
  if (!(max > 0) || text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1; // never split a surrogate pair
  return `${text.slice(0, end)}\n[output cut at ${end} of ${text.length} characters]`;
}
