// The related-words table a catalog index embeds: for each common English word or phrase, the
// index's own terms it can stand for, with their weights. They come from WordNet 3.1, derived once
// into related-words.json.gz (derive-related.ts). Only words that reach a term of this index are
// kept, so a small API embeds a small table, and a query word the API never uses ("meeting",
// "get rid of") still finds the operations that use its related words ("event", "remove").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { stem } from "../../templates/runtime/catalog/text.js";
import { PACKAGE_ROOT } from "../paths.js";
import { once } from "../shared/once.js";

/** The most index terms one word stands for: the best related words, not every distant one. */
const MAX_TERMS = 6;

export const RELATED_WORDS_FILE = join(PACKAGE_ROOT, "generator/catalog/related-words.json.gz");

/** related-words.json.gz: word or phrase key -> flat [stem, weight (0 to 1), ...], best first. */
export interface RelatedWords {
  source: string;
  licence: string;
  table: Record<string, (string | number)[]>;
}

const relatedWords = once((): RelatedWords["table"] => {
  const file: RelatedWords = JSON.parse(gunzipSync(readFileSync(RELATED_WORDS_FILE)).toString("utf8"));
  return file.table;
});

/** The key of a word or phrase: its words' stems, space-separated (stop words kept: "look for"). */
export function phraseKey(words: string[]): string {
  return words.map(stem).join(" ");
}

/** Word or phrase key -> flat [term, weight in thousandths, ...], best first: the terms of `vocabulary` it stands for. */
export function relatedTable(vocabulary: Set<string>): Record<string, (string | number)[]> {
  const table: Record<string, (string | number)[]> = {};
  for (const [key, list] of Object.entries(relatedWords())) {
    // A word the API itself uses means what the API means by it ("user" is not "use" here).
    if (!key.includes(" ") && vocabulary.has(key)) continue;
    const best: (string | number)[] = [];
    for (let i = 0; i < list.length && best.length < 2 * MAX_TERMS; i += 2) {
      const term = list[i];
      if (typeof term === "string" && vocabulary.has(term)) best.push(term, Math.round(Number(list[i + 1]) * 1000));
    }
    if (best.length > 0) table[key] = best;
  }
  return table;
}
