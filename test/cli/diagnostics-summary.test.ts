// Past 50 warnings the CLI summarises them by code (count, first place and message) instead of
// printing every one; errors are always printed in full.
import { describe, expect, it } from "vitest";
import { checkSources, generate } from "../../generator/pipeline.js";
import { formatAll, WARNINGS_IN_FULL } from "../../generator/cli/diagnostics.js";
import { expectGolden } from "../helpers/golden.js";
import { readSources } from "../../generator/cli/sources.js";

const SPEC = "test/fixtures/diagnostics/many-warnings.yaml";

describe("diagnostics past 50 warnings", () => {
  it("are summarised by code, with counts, after the errors", async () => {
    const sources = readSources([SPEC]);
    const { diagnostics } = await generate(sources, { outRoot: "test/.tmp/never-written", check: true, pruneServers: false });
    expect(diagnostics.length).toBeGreaterThan(WARNINGS_IN_FULL);
    const text = formatAll(diagnostics, new Map(sources.map((s) => [s.path, s.text.split(/\r?\n/)])));
    expectGolden("test/fixtures/diagnostics/many-warnings.expected.txt", text);
  });

  it("are printed one by one up to 50", () => {
    const sources = readSources(["test/fixtures/bad-specs/93-every-problem-at-once.yaml"]);
    const { diagnostics } = checkSources(sources);
    const warning = { ...diagnostics[0], severity: "warning" as const };
    const text = formatAll(Array.from({ length: WARNINGS_IN_FULL }, () => warning), new Map());
    expect(text.split(warning.message).length - 1).toBe(WARNINGS_IN_FULL);
    expect(text).not.toMatch(/summarised/);
  });
});
