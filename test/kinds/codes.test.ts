// The table of diagnostic codes: the common groups (generator/shared/codes.ts) and each kind's own
// (generator/kinds/<kind>/codes.ts, test/fixtures/kinds/<kind>/codes.ts), assembled by
// generator/kinds/codes.ts and rendered into docs/diagnostics.md. A code the generator or a
// fixture kind emits must be in the table, a kind's codes are emitted by that kind alone, and every
// code must be produced by some bad-spec fixture (test/fixtures/bad-specs, the lint's bad
// fixtures, test/fixtures/kinds/<kind>/bad-specs) with its severity, or, for the few no small spec
// can produce, asserted by the test the table names.
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { anchorOf, COMMON_CODE_GROUPS } from "../../generator/shared/codes.js";
import { allCodes, codeGroups, codesDoc } from "../../generator/kinds/codes.js";
import { allKinds, registeredKinds } from "../../generator/kinds/index.js";
import { RULES } from "../../generator/lint/index.js";
import { expectGolden } from "../helpers/golden.js";
import { addFixtureKinds, FIXTURE_KINDS } from "../helpers/fixture-kinds.js";

function filesUnder(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) filesUnder(p, out);
    else out.push(p);
  }
  return out;
}

const fixtureKinds = await addFixtureKinds();
const CODES = allCodes();
const known = new Map(CODES.map((c) => [c.code, c]));
// What fixtures produce: "severity code" pairs from every golden diagnostic listing.
const goldens = [...filesUnder("test/fixtures/bad-specs"), ...filesUnder("test/fixtures/lint"), ...filesUnder(FIXTURE_KINDS)].filter((f) => f.endsWith(".expected.txt"));
const produced = new Set(goldens.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/: (error|warning) (KV\d{3}):/g)].map((m) => `${m[1]} ${m[2]}`)));
// The codes a folder's sources emit (a table file, codes.ts, lists codes and emits none).
const emittedUnder = (dir: string) =>
  new Set(
    filesUnder(dir)
      .filter((f) => f.endsWith(".ts") && basename(f) !== "codes.ts")
      .flatMap((f) => [...readFileSync(f, "utf8").matchAll(/["'`](KV\d{3})["'`]/g)].map((m) => m[1])),
  );
const kindDir = (key: string) => (fixtureKinds.some((k) => k.key === key) ? `${FIXTURE_KINDS}/${key}` : `generator/kinds/${key}`);

describe("diagnostic codes", () => {
  it("the table lists each code once, in order within each group, the groups by their first code", () => {
    const codes = CODES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const g of codeGroups()) expect(g.codes.map((c) => c.code), g.title).toEqual(g.codes.map((c) => c.code).sort());
    const firsts = codeGroups().map((g) => g.codes[0].code);
    expect([...firsts].sort()).toEqual(firsts);
  });

  it("is the common groups plus each kind's own, fixture kinds included", () => {
    expect(fixtureKinds.map((k) => k.key)).toContain("echo");
    expect(codeGroups()).toEqual(expect.arrayContaining([...COMMON_CODE_GROUPS, ...allKinds().map((k) => k.codes)]));
    expect(codeGroups().length).toBe(COMMON_CODE_GROUPS.length + allKinds().length);
    expect(known.get("KV901")?.severity).toBe("error");
  });

  it("every code in the generator's and the fixture kinds' sources is in the table", () => {
    const used = new Set([...emittedUnder("generator"), ...emittedUnder(FIXTURE_KINDS)]);
    expect([...used].filter((c) => !known.has(c)).sort()).toEqual([]);
    // And the table names no code that nothing emits.
    expect(CODES.map((c) => c.code).filter((c) => !used.has(c))).toEqual([]);
  });

  it("a kind's codes are emitted by that kind alone, and a kind emits only its own codes and common ones", () => {
    const common = new Set(COMMON_CODE_GROUPS.flatMap((g) => g.codes.map((c) => c.code)));
    for (const kind of allKinds()) {
      const own = new Set(kind.codes.codes.map((c: { code: string }) => c.code));
      const emitted = emittedUnder(kindDir(kind.key));
      expect([...emitted].filter((c) => !own.has(c) && !common.has(c)), kind.key).toEqual([]);
      expect([...own].filter((c) => !emitted.has(c)), `${kind.key}'s codes are emitted in ${kindDir(kind.key)}`).toEqual([]);
    }
    const outsideKinds = new Set(
      filesUnder("generator")
        .filter((f) => !f.startsWith(join("generator", "kinds") + "/") && f.endsWith(".ts") && basename(f) !== "codes.ts")
        .flatMap((f) => [...readFileSync(f, "utf8").matchAll(/["'`](KV\d{3})["'`]/g)].map((m) => m[1])),
    );
    expect([...outsideKinds].filter((c) => !common.has(c)).sort()).toEqual([]);
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

  it("a fixture kind's codes are produced by its own bad specs", () => {
    for (const kind of fixtureKinds) {
      const own = goldens.filter((f) => f.startsWith(`${FIXTURE_KINDS}/${kind.key}/bad-specs/`));
      const mine = new Set(own.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/: (error|warning) (KV\d{3}):/g)].map((m) => `${m[1]} ${m[2]}`)));
      for (const c of kind.codes.codes) expect(mine.has(`${c.severity} ${c.code}`), `${kind.key} ${c.code}`).toBe(true);
    }
  });

  it("the lint's rules are the table's KV6xx codes", () => {
    expect(RULES.map((r) => r.code).sort()).toEqual(CODES.filter((c) => c.code.startsWith("KV6")).map((c) => c.code));
  });

  it("docs/diagnostics.md is rendered from the common and the registered kinds' codes, an anchor per code", () => {
    const doc = codesDoc();
    for (const c of allCodes(registeredKinds())) expect(doc).toContain(`<a id="${anchorOf(c.code).split("#")[1]}"></a>${c.code}`);
    expect(doc).not.toContain("KV901");
    expectGolden("docs/diagnostics.md", doc);
  });
});
