// KV610's candidate search (generator/lint/twins.ts) finds exactly what the pairwise rule it
// replaced found, on random tool sets, the lint fixtures, the example specs and the bench's
// synthetic specs, and its count of exact comparisons grows linearly with the tools.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readdirSync } from "node:fs";
import { readSources } from "../../generator/cli/sources.js";
import { checkSources } from "../../generator/pipeline.js";
import { normalize } from "../../generator/normalize.js";
import { jaccard, withinOneEdit, words } from "../../generator/lint/words.js";
import { type Twin, twinKeys, twins } from "../../generator/lint/twins.js";
import { syntheticTools } from "../bench/fixtures/synthetic.js";

interface Tool {
  name: string;
  description?: string;
}

// The rule before: every pair, in spec order, the first earlier match reported (kept as the reference).
function pairwise(tools: Tool[], count = { comparisons: 0 }): Twin[] {
  const descriptionWords = (t: Tool) => new Set(words(t.description ?? "").filter((w) => w.length > 2));
  const keys = tools.map((t) => ({ joined: words(t.name).join(""), lower: t.name.toLowerCase(), desc: descriptionWords(t) }));
  const found: Twin[] = [];
  tools.forEach((_, j) => {
    const kb = keys[j];
    for (let i = 0; i < j; i++) {
      const ka = keys[i];
      count.comparisons++;
      if (ka.joined === kb.joined || withinOneEdit(ka.lower, kb.lower)) {
        found.push({ tool: j, other: i, by: "name" });
        return;
      }
      const [small, large] = ka.desc.size < kb.desc.size ? [ka.desc.size, kb.desc.size] : [kb.desc.size, ka.desc.size];
      if (small >= 5 && small >= 0.8 * large && jaccard(ka.desc, kb.desc) >= 0.8) {
        found.push({ tool: j, other: i, by: "description" });
        return;
      }
    }
  });
  return found;
}

const linear = (tools: Tool[], count?: { comparisons: number }) => twins(tools.map((t) => twinKeys(t.name, t.description)), count);

function specTools(paths: string[]): Tool[][] {
  const { specs } = checkSources(readSources(paths));
  return normalize(specs).map((s) => s.tools.map((t) => ({ name: t.name, description: t.description })));
}

// Small alphabets and vocabularies, so near-identical names and descriptions are common.
const name = fc.stringMatching(/^[abAB_-]{1,6}$/);
const vocabulary = ["list", "show", "files", "users", "when", "the", "orders", "count", "with", "each", "more", "data", "keys", "one"];
const description = (words: string[]) => fc.array(fc.constantFrom(...words), { maxLength: 12 }).map((ws) => ws.join(" "));
const toolSetOf = (words: string[]) => fc.array(fc.record({ name, description: fc.option(description(words), { nil: undefined }) }), { maxLength: 40 });
const toolSet = toolSetOf(vocabulary);

describe("KV610 candidates: the same findings as every pair compared", () => {
  it("on random tool sets", () => {
    fc.assert(
      fc.property(toolSet, (tools) => {
        expect(linear(tools)).toEqual(pairwise(tools));
      }),
      { numRuns: 400 },
    );
  });

  it("on the random sets that do have findings of both kinds", () => {
    let names = 0;
    let descriptions = 0;
    fc.assert(
      fc.property(toolSetOf(vocabulary.slice(0, 8)), (tools) => {
        const found = pairwise(tools);
        names += found.filter((f) => f.by === "name").length;
        descriptions += found.filter((f) => f.by === "description").length;
        expect(linear(tools)).toEqual(found);
      }),
      { numRuns: 200, seed: 26 },
    );
    expect(names).toBeGreaterThan(0);
    expect(descriptions).toBeGreaterThan(0);
  });

  it("on the lint fixtures and the example specs", () => {
    const fixtures = readdirSync("test/fixtures/lint").filter((f) => f.endsWith(".yaml")).map((f) => `test/fixtures/lint/${f}`);
    const sets = [...specTools(["specs"]), ...fixtures.flatMap((f) => specTools([f]))];
    expect(sets.length).toBeGreaterThan(fixtures.length);
    let found = 0;
    for (const tools of sets) {
      const expected = pairwise(tools);
      found += expected.length;
      expect(linear(tools)).toEqual(expected);
    }
    expect(found).toBeGreaterThan(0);
  });

  it("on the bench's synthetic specs of 1,000 and 5,000 tools", () => {
    for (const n of [1000, 5000]) {
      const tools = syntheticTools(n);
      expect(linear(tools)).toEqual(pairwise(tools));
    }
  });
});

describe("KV610 candidates: comparisons grow linearly", () => {
  it("compares far fewer pairs than every pair, and 5x the tools costs about 5x the comparisons", () => {
    const counts = [1000, 5000].map((n) => {
      const before = { comparisons: 0 };
      const after = { comparisons: 0 };
      const tools = syntheticTools(n);
      pairwise(tools, before);
      linear(tools, after);
      return { n, before: before.comparisons, after: after.comparisons };
    });
    console.log(`KV610 comparisons: ${counts.map((c) => `${c.n} tools: pairwise ${c.before}, candidates ${c.after}`).join("; ")}`);
    const [k1, k5] = counts;
    expect(k1.before).toBe((1000 * 999) / 2); // no findings at 1,000: every pair
    expect(k1.after).toBeLessThan(k1.before / 10);
    expect(k5.after).toBeLessThan(6 * k1.after);
  });

  it("a set of distinct tools with distinct words costs one comparison at most per tool", () => {
    const tools = Array.from({ length: 3000 }, (_, i) => ({ name: `tool${i.toString(36)}x${(i * 7919).toString(36)}`, description: `w${i}a w${i}b w${i}c w${i}d w${i}e w${i}f` }));
    const count = { comparisons: 0 };
    expect(linear(tools, count)).toEqual([]);
    expect(count.comparisons).toBeLessThanOrEqual(tools.length);
  });
});
