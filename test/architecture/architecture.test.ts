// The architecture check: dependency-cruiser walks every import (type-only ones included) of
// generator/ and templates/ and the layering rules in rules.ts hold, with no exception.
import { describe, expect, it } from "vitest";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { architectureRules, requiredRules } from "./rules.js";

async function violations(): Promise<string[]> {
  const result = await cruise(["generator", "templates"], {
    ruleSet: { forbidden: architectureRules(), required: requiredRules() },
    validate: true,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
  });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

describe("architecture", () => {
  it("stages point down, kinds stand alone, templates never import the generator, one era dispatch", { timeout: 120_000 }, async () => {
    expect(await violations()).toEqual([]);
  });

  it("the rules catch a violation (a stage importing a later one)", { timeout: 120_000 }, async () => {
    const result = await cruise(["test/fixtures/architecture"], {
      ruleSet: { forbidden: architectureRules().map((r) => ({ ...r, from: { path: String(r.from.path).replace("^generator/", "^test/fixtures/architecture/generator/") }, to: { ...r.to, path: String(r.to.path).replace(/\^generator\//g, "^test/fixtures/architecture/generator/") } })) },
      validate: true,
      tsPreCompilationDeps: true,
      tsConfig: { fileName: "tsconfig.json" },
    });
    const names = (result.output as ICruiseResult).summary.violations.map((v) => v.rule.name);
    expect(names).toContain("stage-load-points-down");
  });
});
