// The check and the normalize never change the loaded data. The pipeline relies on it: a large
// spec's validators start compiling from a normalize run before the check (pipeline.ts,
// guessValidators), and the emit takes them when the real run gives the same input. Every example
// spec and every bad spec is loaded, deep-frozen, then checked and normalized: any write to the
// data throws in these strict-mode modules.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSources } from "../../generator/cli/sources.js";
import { load } from "../../generator/load.js";
import { check } from "../../generator/check/index.js";
import { normalize } from "../../generator/normalize.js";
import { planServer } from "../../generator/plan.js";
import { validatorsInput } from "../../generator/emit/validators.js";

function deepFreeze(value: unknown): void {
  if (!value || typeof value !== "object" || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

const BAD = "test/fixtures/bad-specs";
const groups: Array<[string, string[]]> = [
  ...readdirSync("specs")
    .filter((n) => n.endsWith(".yaml"))
    .sort()
    .map((n): [string, string[]] => [`specs/${n}`, [`specs/${n}`]]),
  ...readdirSync(BAD)
    .filter((n) => /^\d+-/.test(n) && !n.endsWith(".txt"))
    .sort()
    .map((n): [string, string[]] => [n, [`${BAD}/${n}`]]),
];

const MUTATION = /read[- ]only|not extensible|Cannot (add|delete|assign|define)/i;

describe("the loaded specs stay as loaded", () => {
  it("covers the example specs and the bad-spec corpus", () => expect(groups.length).toBeGreaterThan(100));

  for (const [name, paths] of groups) {
    it(name, () => {
      const loaded: { severity: string }[] = [];
      const specs = load(readSources(paths), loaded as never);
      for (const s of specs) deepFreeze(s.doc);
      const before = JSON.stringify(specs.map((s) => s.doc));
      const checked = check(specs);
      const valid = ![...loaded, ...checked].some((d) => d.severity === "error");
      let servers: ReturnType<typeof normalize> | undefined;
      let thrown: unknown;
      try {
        servers = normalize(specs, []);
      } catch (e) {
        thrown = e; // an invalid spec may make the normalize throw: never by writing to the data
      }
      expect(String((thrown as Error)?.message ?? "")).not.toMatch(MUTATION);
      if (valid) expect(thrown).toBeUndefined();
      // What the guess hands the worker is what the run after the check hands the emit.
      if (valid && servers!.length === 1) {
        const input = (s: typeof servers) => JSON.stringify(validatorsInput(planServer(s![0]!, { outRoot: "out" })));
        expect(input(normalize(specs, []))).toBe(input(servers));
      }
      expect(JSON.stringify(specs.map((s) => s.doc))).toBe(before);
    });
  }
});
