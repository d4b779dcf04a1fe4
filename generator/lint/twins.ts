// KV610's search for near-identical tools, linear in tools for ordinary specs. Each tool is tested
// exactly as the pairwise rule did (name first, then description) but only against candidates:
// earlier tools that share a one-edit name key (the name itself and every one-character deletion,
// as in symmetric-delete spelling search) or a word of the description's prefix (prefix filtering
// for set-similarity joins: with words ordered rarest first, two sets whose Jaccard similarity is at
// least 0.8 share a word among the first |A| - ceil(0.8 |A|) + 1 of each). Candidates are visited
// in spec order, so the first match, and thus each finding, is the pairwise rule's.
import { jaccard, withinOneEdit, words } from "./words.js";

export interface TwinKeys {
  /** The name's words joined: list_files and listFiles are the same tool to an agent. */
  joined: string;
  lower: string;
  /** The description's words of three letters or more. */
  desc: Set<string>;
}

export interface Twin {
  /** Index of the later tool (the one reported) and of the first earlier tool it resembles. */
  tool: number;
  other: number;
  by: "name" | "description";
}

export const twinKeys = (name: string, description: string | undefined): TwinKeys => ({
  joined: words(name).join(""),
  lower: name.toLowerCase(),
  desc: new Set(words(description ?? "").filter((w) => w.length > 2)),
});

/** The exact test, as the pairwise rule applied it to every pair. */
export function resemblance(a: TwinKeys, b: TwinKeys): Twin["by"] | undefined {
  if (a.joined === b.joined || withinOneEdit(a.lower, b.lower)) return "name";
  const [small, large] = a.desc.size < b.desc.size ? [a.desc.size, b.desc.size] : [b.desc.size, a.desc.size];
  // Jaccard can reach 0.8 only when the smaller set has at least 0.8 of the larger's words.
  if (small >= 5 && small >= 0.8 * large && jaccard(a.desc, b.desc) >= 0.8) return "description";
  return undefined;
}

function nameKeys(k: TwinKeys): string[] {
  const out = new Set([`j:${k.joined}`, `e:${k.lower}`]);
  for (let i = 0; i < k.lower.length; i++) out.add(`e:${k.lower.slice(0, i)}${k.lower.slice(i + 1)}`);
  return [...out];
}

/** The rarest words of each description set (of five words or more), enough to meet any set within 0.8. */
function prefixKeys(all: TwinKeys[]): string[][] {
  const df = new Map<string, number>();
  for (const k of all) for (const w of k.desc) df.set(w, (df.get(w) ?? 0) + 1);
  return all.map((k) => {
    if (k.desc.size < 5) return [];
    const ordered = [...k.desc].sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : 1));
    // ceil(0.8 n) in integers, so no rounding can shorten the prefix below what the lemma needs.
    const length = k.desc.size - Math.floor((4 * k.desc.size + 4) / 5) + 1;
    return ordered.slice(0, length).map((w) => `d:${w}`);
  });
}

/** For each tool that resembles an earlier one, the first such tool, in spec order. */
export function twins(keys: TwinKeys[], count?: { comparisons: number }): Twin[] {
  const buckets = new Map<string, number[]>();
  const prefixes = prefixKeys(keys);
  const found: Twin[] = [];
  keys.forEach((kb, j) => {
    const own = [...nameKeys(kb), ...prefixes[j]];
    const lists = own.map((key) => buckets.get(key)).filter((l): l is number[] => l !== undefined);
    const at = lists.map(() => 0);
    // Merge the ascending candidate lists lazily, stopping at the first earlier tool that matches.
    for (;;) {
      let i = Infinity;
      lists.forEach((l, n) => { if (at[n] < l.length && l[at[n]] < i) i = l[at[n]]; });
      if (i === Infinity) break;
      lists.forEach((l, n) => { if (l[at[n]] === i) at[n]++; });
      if (count) count.comparisons++;
      const by = resemblance(keys[i], kb);
      if (by) {
        found.push({ tool: j, other: i, by });
        break;
      }
    }
    for (const key of own) {
      const l = buckets.get(key);
      if (l) l.push(j);
      else buckets.set(key, [j]);
    }
  });
  return found;
}
