// Scoring a query against the index the generator built: a sum of precomputed BM25F weights of the
// query's terms (a term's synonyms count at a lower weight), favouring operations that match more of
// the query's words. Nothing is built at start; a query costs its terms' postings.
import { synonymsOf, terms } from "./text.js";
import type { CatalogIndex } from "./types.js";

/** The score of an operation whose summary opens with a verb the query asks for (or one that means the same). */
const VERB_BONUS = 1.3;

/** An operation's verb: the first term of its summary ("Create a pull request" -> creat), remembered per index. */
const verbs = new WeakMap<CatalogIndex, Map<number, string>>();
function verbOf(index: CatalogIndex, op: number): string {
  let known = verbs.get(index);
  if (!known) verbs.set(index, (known = new Map()));
  let v = known.get(op);
  if (v === undefined) known.set(op, (v = terms(index.ops[op][1].split(" ", 1)[0] ?? "")[0] ?? ""));
  return v;
}

/** A synonym's weight against the word the caller typed. */
const SYNONYM_WEIGHT = 0.35;

const own = Object.prototype.hasOwnProperty;

function postings(index: CatalogIndex, term: string): number[] | undefined {
  return own.call(index.postings, term) ? index.postings[term] : undefined;
}

/** A term's inverse document frequency, from its postings' length (the BM25 idf the weights were built with). */
function idf(index: CatalogIndex, term: string): number {
  const n = index.ops.length;
  const df = (postings(index, term)?.length ?? 0) / 2;
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * The query's distinct terms, each with the terms that stand for it and their weights. A synonym
 * counts at most as much as the word typed: a rare synonym of a common word ("check" for "get")
 * does not outrank the word itself.
 */
function expand(index: CatalogIndex, query: string): Map<string, number>[] {
  const seen = new Set<string>();
  const out: Map<string, number>[] = [];
  for (const t of terms(query)) {
    if (seen.has(t)) continue;
    seen.add(t);
    const alternatives = new Map<string, number>([[t, 1]]);
    const own = idf(index, t);
    for (const s of synonymsOf(t)) if (!alternatives.has(s)) alternatives.set(s, SYNONYM_WEIGHT * Math.min(1, own / idf(index, s)));
    out.push(alternatives);
  }
  return out;
}

/**
 * Operation indexes (into index.ops) ranked by score, best first, ties in name order; only those
 * `visible` admits. Weights are stored as integers (thousandths).
 */
export function rank(index: CatalogIndex, query: string, visible: (name: string) => boolean): number[] {
  const groups = expand(index, query);
  if (groups.length === 0) return [];
  const score = new Map<number, number>();
  const covered = new Map<number, number>();
  for (const alternatives of groups) {
    const best = new Map<number, number>();
    for (const [term, weight] of alternatives) {
      const list = postings(index, term);
      if (!list) continue;
      for (let i = 0; i < list.length; i += 2) {
        const s = list[i + 1] * weight;
        if (s > (best.get(list[i]) ?? 0)) best.set(list[i], s);
      }
    }
    for (const [op, s] of best) {
      score.set(op, (score.get(op) ?? 0) + s);
      covered.set(op, (covered.get(op) ?? 0) + 1);
    }
  }
  const n = groups.length;
  const asked = new Set(groups.flatMap((g) => [...g.keys()]));
  const ranked: [number, number][] = [];
  for (const [op, s] of score) {
    if (!visible(index.ops[op][0])) continue;
    const verb = asked.has(verbOf(index, op)) ? VERB_BONUS : 1;
    ranked.push([op, s * verb * (0.5 + (0.5 * covered.get(op)!) / n)]);
  }
  ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return ranked.map(([op]) => op);
}
