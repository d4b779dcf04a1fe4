// The related-words table a catalog index embeds: for each common English word or phrase (WordNet
// 3.1, generator/catalog/wordnet.ts), the index's own terms it can stand for, with their weights.
// Only words that reach a term of this index are kept, so a small API embeds a small table, and a
// query word the API never uses ("meeting", "get rid of") still finds the operations that use its
// related words ("event", "remove").
import { stem } from "../../templates/runtime/catalog/text.js";
import { byCodeUnit } from "../shared/order.js";
import { relatedWords, wordNet } from "./wordnet.js";

/** The most index terms one word stands for: the best related words, not every distant one. */
const MAX_TERMS = 6;
/** Words with fewer tagged senses are left out: rare in what users type, and they make the table large. */
const MIN_TAGGED = 1;
/** Phrases of at most this many words ("get rid of"). */
const MAX_PHRASE = 3;

/** The key of a word or phrase: its words' stems, space-separated (stop words kept: "look for"). */
export function phraseKey(words: string[]): string {
  return words.map(stem).join(" ");
}

/** Word or phrase key -> flat [term, weight in thousandths, ...], best first. */
export function relatedTable(vocabulary: Set<string>): Record<string, (string | number)[]> {
  const wn = wordNet();
  const merged = new Map<string, Map<string, number>>();
  // A related word's index term, or null when it has none; most words are related to many lemmas.
  const terms = new Map<string, string | null>();
  const termOf = (word: string): string | null => {
    let term = terms.get(word);
    if (term === undefined) {
      term = /^[a-z]+$/.test(word) && vocabulary.has(stem(word)) ? stem(word) : null;
      terms.set(word, term);
    }
    return term;
  };
  for (const [lemma, tagged] of wn.common) {
    if (tagged < MIN_TAGGED) continue;
    const parts = lemma.split(/[_-]/);
    if (parts.length > MAX_PHRASE || parts.some((p) => !/^[a-z]+$/.test(p))) continue;
    const key = phraseKey(parts);
    // A word the API itself uses means what the API means by it ("user" is not "use" here).
    if (parts.length === 1 && vocabulary.has(key)) continue;
    let targets: Map<string, number> | undefined;
    for (const [word, weight] of relatedWords(wn, lemma)) {
      const term = termOf(word);
      if (term === null || term === key) continue;
      if (!targets) merged.set(key, (targets = merged.get(key) ?? new Map()));
      if (weight > (targets.get(term) ?? 0)) targets.set(term, weight);
    }
  }
  const table: Record<string, (string | number)[]> = {};
  for (const key of [...merged.keys()].sort(byCodeUnit)) {
    const best = [...merged.get(key)!].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0])).slice(0, MAX_TERMS);
    table[key] = best.flatMap(([term, w]) => [term, Math.round(w * 1000)]);
  }
  return table;
}
