// One table of diagnostic codes (generator/shared/codes.ts), rendered into docs/diagnostics.md.
// A code the generator emits must be in the table, and every code in the table must be produced
// by some bad-spec fixture (test/fixtures/bad-specs, or the lint's bad fixtures) with its severity,
// or, for the few no small spec can produce, asserted by the test the table names.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CODES, anchorOf, renderCodesDoc } from "../../generator/shared/codes.js";
import { RULES } from "../../generator/lint/index.js";
import { expectGolden } from "../helpers/golden.js";

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) filesUnder(p, out);
    else out.push(p);
  }
  return out;
}

const known = new Map(CODES.map((c) => [c.code, c]));
// What fixtures produce: "severity code" pairs from every golden diagnostic listing.
const goldens = [...filesUnder("test/fixtures/bad-specs"), ...filesUnder("test/fixtures/lint")].filter((f) => f.endsWith(".expected.txt"));
const produced = new Set(goldens.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/: (error|warning) (KV\d{3}):/g)].map((m) => `${m[1]} ${m[2]}`)));

describe("diagnostic codes", () => {
  it("the table lists each code once, in order", () => {
    const codes = CODES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(codes);
  });

  it("every code in the generator's sources is in the table", () => {
    const sources = filesUnder("generator").filter((f) => f.endsWith(".ts") && !f.endsWith("shared/codes.ts"));
    const used = new Set(sources.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/["'`](KV\d{3})["'`]/g)].map((m) => m[1])));
    expect([...used].filter((c) => !known.has(c)).sort()).toEqual([]);
    // And the table names no code that nothing emits.
    expect(CODES.map((c) => c.code).filter((c) => !used.has(c))).toEqual([]);
  });

  it("every code a fixture produces is in the table, with its severity", () => {
    for (const p of produced) {
      const [severity, code] = p.split(" ");
      expect(known.get(code)?.severity, p).toBe(severity);
    }
  });

  it("every code in the table has a bad-spec fixture that produces it (or names the test that does)", () => {
    expect(CODES.filter((c) => !c.testedBy && !produced.has(`${c.severity} ${c.code}`)).map((c) => c.code)).toEqual([]);
    for (const c of CODES.filter((x) => x.testedBy)) {
      expect(produced.has(`${c.severity} ${c.code}`), `${c.code} has a fixture: drop testedBy`).toBe(false);
      expect(readFileSync(c.testedBy!, "utf8"), `${c.testedBy} asserts ${c.code}`).toMatch(new RegExp(`(toBe\\(|code: )"${c.code}"`));
    }
  });

  it("the lint's rules are the table's KV6xx codes", () => {
    expect(RULES.map((r) => r.code).sort()).toEqual(CODES.filter((c) => c.code.startsWith("KV6")).map((c) => c.code));
  });

  it("docs/diagnostics.md is rendered from the table, an anchor per code", () => {
    const doc = renderCodesDoc();
    for (const c of CODES) expect(doc).toContain(`<a id="${anchorOf(c.code).split("#")[1]}"></a>${c.code}`);
    expectGolden("docs/diagnostics.md", doc);
  });
});
