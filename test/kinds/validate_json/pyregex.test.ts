// The Python-syntax translator against Python's own answers (test/kinds/validate_json/fixtures/pyregex-table.json,
// written by gen-pyregex-table.py with real python3; this test never runs Python).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { translatePythonPattern } from "../../../templates/kinds/validate_json/pyregex/translate.js";
import { patternRefusalSentence } from "../../../templates/kinds/validate_json/pyregex/sentences.js";

interface Case {
  pattern: string;
  inputs: string[];
  python: { matches: boolean[] } | { error: string; position: number | null };
  refuse?: string;
}
const table = JSON.parse(readFileSync(new URL("./fixtures/pyregex-table.json", import.meta.url), "utf8")) as { cases: Case[] };

describe("Python re translator against the Python table", () => {
  it("has at least 80 patterns", () => expect(table.cases.length).toBeGreaterThanOrEqual(80));

  for (const c of table.cases) {
    it(`${JSON.stringify(c.pattern)}`, () => {
      const t = translatePythonPattern(c.pattern);
      if ("error" in c.python) {
        // Python rejects it: so do we, with Python's reason.
        expect(t.ok).toBe(false);
        if (!t.ok) expect(t.kind === "invalid" || t.kind === "named-character").toBe(true);
        if (!t.ok && t.kind === "invalid") expect(t.detail).toBe(c.python.error);
        return;
      }
      if (c.refuse) {
        expect(t).toMatchObject({ ok: false, kind: c.refuse });
        return;
      }
      expect(t.ok).toBe(true);
      if (!t.ok) return;
      const re = new RegExp(t.js, "u");
      expect(c.inputs.map((s) => re.test(s))).toEqual(c.python.matches);
    });
  }
});

describe("refusal sentences", () => {
  it("names the construct and the place", () => {
    const t = translatePythonPattern("(?<=a)b");
    if (t.ok) throw new Error("expected a refusal");
    expect(patternRefusalSentence("(?<=a)b", t, "at #/pattern")).toBe(
      'Refused: the pattern "(?<=a)b" at #/pattern uses a look-behind (?<= or (?<!, which patterns here do not support (found "(?<=" at position 0).',
    );
  });
  it("gives each forbidden construct its own sentence", () => {
    const kinds = ["(?i)a", "(?<!a)b", "(a)\\1", "(?>a)", "a++", "(a)(?(1)b)", "\\N{DIGIT ONE}"].map((p) => {
      const t = translatePythonPattern(p);
      return t.ok ? "ok" : patternRefusalSentence(p, t, "here").replace(JSON.stringify(p), "P").replace(/ \(found.*$/, "");
    });
    expect(new Set(kinds).size).toBe(kinds.length);
  });
});

describe("cheap-pattern bound (which tests may run on the main thread)", () => {
  const degree = (p: string) => {
    const t = translatePythonPattern(p);
    return t.ok ? t.cheapDegree : "refused";
  };
  it.each([
    ["^[A-Z]{3}-[0-9]{4}$", 2], ["^[a-z0-9-]+$", 3], ["^[^@ ]+@[^@ ]+$", 4], ["a?a?a?aaa", 5], ["\\bfoo\\b", 2],
    ["^(a+)+$", null], ["(?:ab)*", null], ["a|b", null], ["(?=a)a", null], ["[-\\S]+", null],
  ])("%s -> %s", (p, want) => expect(degree(p)).toBe(want));
});
