// The tool-definition lint: for each rule a good fixture (no warning at all) and a bad one (only
// that rule's warnings, golden text with file:line:col); the example specs are clean, and
// `gen --strict` turns warnings into errors and writes nothing.
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { expectGolden } from "../helpers/golden.js";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSources } from "../../generator/cli/sources.js";
import { checkSources } from "../../generator/pipeline.js";
import { normalize } from "../../generator/normalize.js";
import { lint, RULES } from "../../generator/lint/index.js";
import { formatAll } from "../../generator/cli/diagnostics.js";

const DIR = "test/fixtures/lint";

function lintFiles(paths: string[]) {
  const sources = readSources(paths);
  const { diagnostics, specs } = checkSources(sources);
  expect(diagnostics.filter((d) => d.severity === "error"), "fixture must pass the check").toEqual([]);
  const warnings = lint(specs, normalize(specs));
  return { warnings, text: formatAll(warnings, new Map(sources.map((s) => [s.path, s.text.split(/\r?\n/)]))) };
}

describe("lint rules", () => {
  it("every rule has a code KV6xx, a summary and both fixtures", () => {
    const codes = RULES.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const r of RULES) {
      expect(r.code).toMatch(/^KV6\d\d$/);
      expect(r.summary.length).toBeGreaterThan(10);
      expect(existsSync(`${DIR}/${r.code}-good.yaml`), r.code).toBe(true);
      expect(existsSync(`${DIR}/${r.code}-bad.yaml`), r.code).toBe(true);
    }
    expect(readdirSync(DIR).filter((f) => f.endsWith(".yaml")).length).toBe(RULES.length * 2);
  });

  for (const rule of RULES) {
    describe(`${rule.code}: ${rule.summary}`, () => {
      it("is quiet on the good fixture", () => {
        expect(lintFiles([`${DIR}/${rule.code}-good.yaml`]).warnings).toEqual([]);
      });

      it("warns on the bad fixture, with its place", () => {
        const { warnings, text } = lintFiles([`${DIR}/${rule.code}-bad.yaml`]);
        expect(warnings.length).toBeGreaterThan(0);
        for (const w of warnings) {
          expect(w.code).toBe(rule.code);
          expect(w.severity).toBe("warning");
          expect(w.location.line).toBeGreaterThan(0);
        }
        expectGolden(`${DIR}/${rule.code}-bad.expected.txt`, text);
      });
    });
  }

  it("finds nothing in the example specs", () => {
    expect(lintFiles(["specs"]).warnings).toEqual([]);
  });
});

describe("kervan gen and lint warnings", () => {
  const kervan = (...args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8" });

  it("prints warnings with file:line:col and still generates", () => {
    const out = mkdtempSync(join(tmpdir(), "kervan-lint-"));
    const r = kervan("gen", `${DIR}/KV604-bad.yaml`, "--out", out);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/KV604-bad\.yaml:\d+:\d+: warning KV604: /);
    expect(existsSync(join(out, "lint-kv604-bad", "server.mjs"))).toBe(true);
  });

  it("--strict makes them errors: exit 1, nothing written", () => {
    const out = join(mkdtempSync(join(tmpdir(), "kervan-lint-")), "out");
    const r = kervan("gen", `${DIR}/KV604-bad.yaml`, "--out", out, "--strict");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/KV604-bad\.yaml:\d+:\d+: error KV604: /);
    expect(existsSync(out)).toBe(false);
  });

  it("the example specs pass --strict", () => {
    const r = kervan("gen", "specs", "--out", join(mkdtempSync(join(tmpdir(), "kervan-lint-")), "out"), "--strict");
    expect(r.stderr).not.toMatch(/warning|error/);
    expect(r.status).toBe(0);
  });
});
