// The bad-spec corpus: each spec under test/fixtures/bad-specs must fail the check with exactly
// its golden diagnostics (file:line:col, code, message, source line). `npm run update-goldens` rewrites them.
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync } from "node:fs";
import { expectGolden } from "../helpers/golden.js";
import { spawnSync } from "node:child_process";
import { readSources } from "../../generator/cli/sources.js";
import { checkSources } from "../../generator/pipeline.js";
import { formatAll } from "../../generator/cli/diagnostics.js";

const DIR = "test/fixtures/bad-specs";
// A case is one spec, or a folder of specs that are wrong together (two servers of one name).
const cases = readdirSync(DIR, { withFileTypes: true })
  .filter((e) => /^\d+-/.test(e.name) && (e.name.endsWith(".yaml") || e.isDirectory()))
  .map((e) => e.name)
  .sort();

describe("bad-spec corpus", () => {
  it("has at least 20 cases", () => expect(cases.length).toBeGreaterThanOrEqual(20));

  for (const name of cases) {
    it(name, () => {
      const sources = readSources([`${DIR}/${name}`]);
      const files = new Set(sources.map((s) => s.path));
      const { diagnostics } = checkSources(sources);
      expect(diagnostics.filter((d) => d.severity === "error").length).toBeGreaterThan(0);
      for (const d of diagnostics) {
        expect(files.has(d.location.file), d.location.file).toBe(true);
        expect(d.location.line).toBeGreaterThan(0);
        expect(d.location.column).toBeGreaterThan(0);
      }
      const text = formatAll(diagnostics, new Map(sources.map((s) => [s.path, s.text.split(/\r?\n/)])));
      expectGolden(`${DIR}/${name.replace(/\.yaml$/, "")}.expected.txt`, text);
    });
  }

  it("the CLI prints diagnostics, no stack trace, and exits 1", () => {
    const r = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", `${DIR}/14-placeholder-not-in-schema.yaml`, "--out", "test/.tmp/never"], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/14-placeholder-not-in-schema\.yaml:\d+:\d+: error KV323: placeholder \{greeting\}/);
    expect(r.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/);
    expect(existsSync("test/.tmp/never")).toBe(false);
  });
});
