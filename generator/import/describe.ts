// Descriptions from an API's own text: markup cleaned (HTML, Markdown links, emphasis, code
// fences), whitespace collapsed, clipped at a sentence boundary, purpose (the summary) first.
// Sentences that only point to another page go, and so does a list of media types the tool cannot ask for (lean.ts).

import { newImportRun, type ImportRun } from "./run.js";
import { withoutMediaTypeLists, withoutPointers } from "./lean.js";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

// API documents repeat their texts (a shared schema's descriptions, once per use): each is cleaned once per import.
export function cleanText(text: unknown, max = 1200, run: ImportRun = newImportRun()): string {
  if (typeof text !== "string") return "";
  const cleaned = run.texts;
  const key = `${max}\u0000${text}`;
  const known = cleaned.get(key);
  if (known !== undefined) return known;
  if (cleaned.size >= 100_000) cleaned.clear();
  const s = clean(run.lean ? withoutPointers(text) : text, max);
  cleaned.set(key, s);
  return s;
}

function clean(text: string, max: number): string {
  // HTML tags go, except inside code spans (`<provider>` there is text, not a tag).
  const untagged = text
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .split(/(`[^`\n]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/<br\s*\/?>/gi, " ").replace(/<\/?[A-Za-z][^<>]*>/g, "")))
    .join("");
  let s = untagged
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[\[([^\]]+)\]\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1")
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, e: string) => ENTITIES[e])
    .replace(/^\s{0,3}#{1,6}\s+/gm, "")
    .replace(/^\s*[-*+]\s+/gm, "")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\{\{|\}\}/g, (m) => (m === "{{" ? "{ {" : "} }"))
    .replace(/\s+/g, " ")
    .trim();
  if (s.length > max) {
    const cut = s.slice(0, max);
    const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("! "), cut.lastIndexOf("? "));
    s = end > max / 2 ? cut.slice(0, end + 1) : `${cut.replace(/\s+\S*$/, "")}…`;
  }
  return s;
}

const sentence = (s: string) => (/[.!?…:]$/.test(s) ? s : `${s}.`);

const VERB: Record<string, string> = { get: "Get", head: "Check", post: "Create or submit", put: "Replace", patch: "Update", delete: "Delete" };

/**
 * The tool description: the summary, then the description when it adds to it; a method-and-path
 * sentence when the API says nothing. A list of the media types the operation answers in goes: the
 * tool sends the Accept header its media types imply, its caller has no say (inputs.ts).
 */
export function toolDescription(op: Record<string, unknown>, method: string, path: string, run: ImportRun = newImportRun()): string {
  const summary = cleanText(op.summary, 300, run);
  const text = typeof op.description === "string" && run.lean ? withoutMediaTypeLists(op.description) : op.description;
  const long = cleanText(text, 1200, run);
  const parts: string[] = [];
  if (summary) parts.push(sentence(summary[0].toUpperCase() + summary.slice(1)));
  const repeats = summary && long.toLowerCase().startsWith(summary.toLowerCase().replace(/[.!?]$/, ""));
  if (long && !repeats) parts.push(sentence(long));
  else if (long && long.length > summary.length) parts[0] = sentence(long);
  if (!parts.length) parts.push(`${VERB[method]} ${path} (${method.toUpperCase()} ${path}).`);
  return cleanText(parts.join(" "), 1500, run);
}

export function toolTitle(op: Record<string, unknown>, run: ImportRun = newImportRun()): string | undefined {
  const s = cleanText(op.summary, 200, run).replace(/\.$/, "");
  return s && s.length <= 80 ? s : undefined;
}
