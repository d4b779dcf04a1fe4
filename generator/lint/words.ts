// Text helpers for the lint: word lists and distances, all deterministic.
export { levenshtein } from "../shared/levenshtein.js";

/** Lower-case words of a text; names split at _, -, and camelCase humps. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Words that carry no meaning of their own when comparing a description with a name. */
export const FILLER = new Set(["a", "an", "the", "this", "that", "tool", "function", "of", "for", "to", "and", "or", "it", "is", "in", "on", "with", "by", "from"]);

/** Jaccard similarity of two word sets. */
export function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union ? shared / union : 1;
}

/** Whether two strings are at most one insertion, deletion or substitution apart, in linear time. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a.length < b.length) [a, b] = [b, a];
  if (a.length - b.length > 1) return false;
  let i = 0;
  while (i < b.length && a[i] === b[i]) i++;
  // After the first difference, the rest must match with one character of `a` skipped or replaced.
  return a.length === b.length ? a.slice(i + 1) === b.slice(i + 1) : a.slice(i + 1) === b.slice(i);
}
