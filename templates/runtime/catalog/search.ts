// Scoring a query against the index the generator built: a sum of precomputed BM25F weights of the
// query's terms (a term's synonyms count at a lower weight), favouring operations that match more of
// the query's words, operations whose name the query explains wholly, and, for a question, the
// operations that only read. Nothing is built at start; a query costs its terms' postings.
import { asksForMany, asksQuestion, LIST_MARK, READ_MARK, synonymsOf, terms, tokens, type Token } from "./text.js";
import type { CatalogIndex } from "./types.js";

/** The score of an operation whose summary opens with a verb the query asks for (or one that means the same). */
const VERB_BONUS = 1.3;

/** The least weight at which a query's stand-in counts as a verb it asks for (a phrase's own words do not). */
const VERB_ASKED = 0.3;

/** The score of an operation that answers a collection, when the query asks for many things. */
const LIST_BONUS = 1.4;

/** An operation's verb: the first term of its summary ("Create a pull request" -> creat), remembered per index. */
const verbs = new WeakMap<CatalogIndex, Map<number, string>>();
function verbOf(index: CatalogIndex, op: number): string {
  let known = verbs.get(index);
  if (!known) verbs.set(index, (known = new Map()));
  let v = known.get(op);
  if (v === undefined) known.set(op, (v = terms(index.ops[op][1].split(" ", 1)[0] ?? "")[0] ?? ""));
  return v;
}

/** An operation's name as index terms, remembered per index. */
const names = new WeakMap<CatalogIndex, (string[] | undefined)[]>();
function nameTerms(index: CatalogIndex, op: number): string[] {
  let known = names.get(index);
  if (!known) names.set(index, (known = []));
  return (known[op] ??= [...new Set(terms(index.ops[op][0]))]);
}

/** The share of a name's terms the query means (any of its words' stand-ins), weighed by NAME_FIT. */
function nameFit(name: string[], meant: Set<string>): number {
  if (name.length === 0) return 1;
  let hit = 0;
  for (const t of name) if (meant.has(t)) hit++;
  return 1 - NAME_FIT + (NAME_FIT * hit) / name.length;
}

/** A synonym's weight against the word the caller typed. */
const SYNONYM_WEIGHT = 0.35;

/**
 * How much an operation's name counts against the words it has that the query does not mean: at 0.7,
 * an operation whose name the query explains wholly ("delete a repo": repos_delete) scores over one
 * with words of its own (repos_delete_file) by up to 1 / 0.3.
 */
const NAME_FIT = 0.7;

/** The score of an operation that only reads (GET), when the query is a question ("what ...", "has ..."). */
const READ_BONUS = 1.3;

const own = Object.prototype.hasOwnProperty;

function postings(index: CatalogIndex, term: string): number[] | undefined {
  return own.call(index.postings, term) ? index.postings[term] : undefined;
}

/** The operations a mark's postings name (LIST_MARK, READ_MARK), remembered per index. */
const marked = new WeakMap<CatalogIndex, Map<string, Set<number>>>();
function postingOps(index: CatalogIndex, term: string): Set<number> {
  let known = marked.get(index);
  if (!known) marked.set(index, (known = new Map()));
  let ops = known.get(term);
  if (ops === undefined) known.set(term, (ops = new Set((postings(index, term) ?? []).filter((_, i) => i % 2 === 0))));
  return ops;
}

/** A term's inverse document frequency, from its postings' length (the BM25 idf the weights were built with). */
function idf(index: CatalogIndex, term: string): number {
  const n = index.ops.length;
  const df = (postings(index, term)?.length ?? 0) / 2;
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** How much the word inside an un- or re- word the index lacks ("untag", "reopen") stands for it. */
const UNPREFIXED_WEIGHT = 0.7;

/** For a word the index lacks, made of un- or re- and a word it has: that word, and for un-, removing. */
function unprefixed(index: CatalogIndex, term: string): [string, number][] {
  const m = /^(un|re)(.{3,})$/.exec(term);
  if (!m || postings(index, term) || !postings(index, m[2]!)) return [];
  const out: [string, number][] = [[m[2]!, UNPREFIXED_WEIGHT]];
  if (m[1] === "un") out.push(["remov", SYNONYM_WEIGHT], ["delet", SYNONYM_WEIGHT]);
  return out;
}

/** The longest phrase the related-words table holds ("get rid of"). */
const MAX_PHRASE = 3;

/** A related word's weight (WordNet's, 0.25 to 0.6) against the word the caller typed. */
const RELATED_WEIGHT = 1;

/** A phrase's words' weight as themselves, and how much more its related words count than a word's. */
const PHRASE_WORD_WEIGHT = 0.25;
const PHRASE_BOOST = 1.5;

/** The longest phrase at the start of `rest` that the related-words table holds, or 1. */
function phraseLength(related: Record<string, (string | number)[]>, rest: Token[]): number {
  for (let n = Math.min(MAX_PHRASE, rest.length); n > 1; n--) {
    const part = rest.slice(0, n);
    if (own.call(related, part.map((t) => t.stem).join(" ")) && part.some((t) => !t.stop)) return n;
  }
  return 1;
}

/**
 * The query's distinct words (or phrases), each with the terms that stand for it and their
 * weights: the word itself, its synonyms in the general vocabulary, and the index terms its
 * related words are (the index's table, built from WordNet). A stand-in counts at most as much as
 * the word typed: a rare synonym of a common word ("check" for "get") does not outrank the word itself.
 */
function expand(index: CatalogIndex, query: string): Map<string, number>[] {
  const related = index.related ?? {};
  const toks = tokens(query);
  const seen = new Set<string>();
  const out: Map<string, number>[] = [];
  for (let i = 0; i < toks.length; ) {
    const n = phraseLength(related, toks.slice(i));
    const part = toks.slice(i, (i += n));
    // A lone letter or digit the caller types ("I", "x") is no word to match.
    const heads = part.filter((t) => !t.stop && t.stem.length > 1 && !seen.has(t.stem)).map((t) => t.stem);
    if (heads.length === 0) continue;
    for (const h of heads) seen.add(h);
    // In a phrase ("get rid of") the words stand less for themselves than the phrase's meaning does.
    const alternatives = new Map<string, number>(heads.map((h) => [h, n > 1 ? PHRASE_WORD_WEIGHT : 1]));
    const boost = n > 1 ? PHRASE_BOOST : 1;
    // A phrase is as specific as a word the index lacks: its stand-ins are not capped by its words' rarity.
    const typed = n > 1 ? Infinity : Math.min(...heads.map((h) => idf(index, h)));
    const add = (term: string, weight: number) => {
      const w = weight * Math.min(1, typed / idf(index, term));
      if (w > (alternatives.get(term) ?? 0)) alternatives.set(term, w);
    };
    if (n === 1) for (const s of synonymsOf(heads[0]!)) add(s, SYNONYM_WEIGHT);
    for (const h of heads) for (const [s, w] of unprefixed(index, h)) add(s, w);
    const key = part.map((t) => t.stem).join(" ");
    const list = own.call(related, key) ? related[key]! : [];
    for (let j = 0; j < list.length; j += 2) add(list[j] as string, Math.min(1, ((list[j + 1] as number) / 1000) * RELATED_WEIGHT * boost));
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
  const asked = new Set(groups.flatMap((g) => [...g].filter(([, w]) => w >= VERB_ASKED).map(([t]) => t)));
  const meant = new Set(groups.flatMap((g) => [...g.keys()]));
  const none = new Set<number>();
  const reads = asksQuestion(query) ? postingOps(index, READ_MARK) : none;
  const lists = asksForMany(query) ? postingOps(index, LIST_MARK) : none;
  const ranked: [number, number][] = [];
  let top = 0;
  for (const [op, s] of score) {
    if (!visible(index.ops[op][0])) continue;
    const verb = asked.has(verbOf(index, op)) ? VERB_BONUS : 1;
    const many = lists.has(op) ? LIST_BONUS : 1;
    const read = reads.has(op) ? READ_BONUS : 1;
    const base = s * verb * many * read * (0.5 + (0.5 * covered.get(op)!) / n);
    ranked.push([op, base]);
    if (base > top) top = base;
  }
  // The name fit lowers a score at most to (1 - NAME_FIT) of it: an operation below that share of the
  // best score stays below every one above it whatever its name, and takes the floor unweighed.
  const floor = 1 - NAME_FIT;
  for (const r of ranked) r[1] *= r[1] >= floor * top ? nameFit(nameTerms(index, r[0]), meant) : floor;
  ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return ranked.map(([op]) => op);
}
