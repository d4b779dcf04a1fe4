// A fixture kind's own bad specs, test/fixtures/kinds/<kind>/bad-specs/: each must fail the check
// with exactly its golden diagnostics, as the corpus of test/fixtures/bad-specs does (kept apart so
// that corpus sees the registered kinds alone). `npm run update-goldens` rewrites them.
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync } from "node:fs";
import { expectGolden } from "../helpers/golden.js";
import { readSources } from "../../generator/cli/sources.js";
import { checkSources } from "../../generator/pipeline.js";
import { formatAll } from "../../generator/cli/diagnostics.js";
import { addFixtureKinds, FIXTURE_KINDS } from "../helpers/fixture-kinds.js";

const kinds = await addFixtureKinds();
const cases = kinds.flatMap((k) => {
  const dir = `${FIXTURE_KINDS}/${k.key}/bad-specs`;
  return existsSync(dir) ? readdirSync(dir).filter((n) => /^\d+-.*\.yaml$/.test(n)).sort().map((n) => `${dir}/${n}`) : [];
});

describe("the fixture kinds' bad specs", () => {
  it("every fixture kind has one", () => {
    for (const k of kinds) expect(cases.some((c) => c.startsWith(`${FIXTURE_KINDS}/${k.key}/`)), k.key).toBe(true);
  });

  for (const path of cases) {
    it(path, () => {
      const sources = readSources([path]);
      const { diagnostics } = checkSources(sources);
      expect(diagnostics.filter((d) => d.severity === "error").length).toBeGreaterThan(0);
      const text = formatAll(diagnostics, new Map(sources.map((s) => [s.path, s.text.split(/\r?\n/)])));
      expectGolden(path.replace(/\.yaml$/, ".expected.txt"), text);
    });
  }
});
