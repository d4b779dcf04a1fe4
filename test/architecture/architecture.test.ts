// The architecture check: dependency-cruiser walks every import (type-only ones included) of
// generator/ and templates/ and the layering rules in rules.ts hold, with no exception.
import { describe, expect, it } from "vitest";
import { cruise, type ICruiseResult, type IRegularForbiddenRuleType } from "dependency-cruiser";
import { readdirSync, readFileSync } from "node:fs";
import { allKinds } from "../../generator/kinds/index.js";
import { architectureRules, requiredRules, STAGES } from "./rules.js";

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

  it("every generator file belongs to a layer the rules know", () => {
    const layers = [/^generator\/(shared|model|kinds)\//, /^generator\/paths\.ts$/, ...STAGES.map(([, p]) => new RegExp(`^generator/${p}`))];
    const files = (readdirSync("generator", { recursive: true }) as string[]).map((f) => `generator/${f.split("\\").join("/")}`).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => !layers.some((l) => l.test(f)))).toEqual([]);
  });

  it("no stage asks for a kind by name: a kind's knowledge stays in its definition", () => {
    const keys = allKinds().map((k) => k.key).join("|");
    const byName = new RegExp(`\\b(kind|key)\\s*[!=]==?\\s*["'](${keys})["']|\\b(raw|tool|t)\\.(${keys})\\b`);
    // Spec writers are exempt: the command-line form writes exec blocks and `kervan import` writes
    // http blocks, by design; they produce specs, they do not read a tool's kind.
    const files = (readdirSync("generator", { recursive: true }) as string[]).map((f) => `generator/${f.split("\\").join("/")}`).filter((f) => f.endsWith(".ts") && !f.startsWith("generator/kinds/") && f !== "generator/cli/tool-flags.ts" && !f.startsWith("generator/import/"));
    const found = files.flatMap((f) => readFileSync(f, "utf8").split("\n").map((line, i) => [f, i + 1, line] as const)).filter(([, , line]) => byName.test(line));
    expect(found.map(([f, n, line]) => `${f}:${n}: ${line.trim()}`)).toEqual([]);
  });

  it("the rules catch a violation of each kind", { timeout: 120_000 }, async () => {
    const found = await fixtureViolations();
    expect(found).toContain("stage-load-points-down: generator/load.ts -> generator/pipeline.ts");
    expect(found).toContain("normalize-imports-no-check: generator/normalize.ts -> generator/check/rules.ts");
    expect(found).toContain("shared-imports-no-kind-runtime: generator/shared/helper.ts -> templates/kinds/echo/table.ts");
    expect(found).toContain("import-through-the-pipeline: generator/import/chain.ts -> generator/check/rules.ts");
    // The importer may use the pipeline's entry points.
    expect(found.filter((v) => v.startsWith("import-through-the-pipeline:"))).toEqual(["import-through-the-pipeline: generator/import/chain.ts -> generator/check/rules.ts"]);
    // Each circle is reported once, at one of its edges: the pair of modules, in name order.
    const circles = found.filter((v) => v.startsWith("no-circular: ")).map((v) => v.slice("no-circular: ".length).split(" -> ").sort().join(" <-> "));
    expect(circles.sort()).toEqual(["generator/cli/gen.ts <-> generator/cli/watch.ts", "templates/kinds/echo/compile.ts <-> templates/kinds/echo/keyword.ts"]);
  });
});

const FIXTURE = "test/fixtures/architecture/";

/** The rules cruised over the fixture tree, whose generator/ and templates/ stand for the real ones. */
async function fixtureViolations(): Promise<string[]> {
  const moved = (rule: IRegularForbiddenRuleType): IRegularForbiddenRuleType =>
    JSON.parse(JSON.stringify(rule).replaceAll("^generator/", `^${FIXTURE}generator/`).replaceAll("^templates/", `^${FIXTURE}templates/`).replaceAll("^(generator|templates)/", `^${FIXTURE}(generator|templates)/`)) as IRegularForbiddenRuleType;
  const result = await cruise([FIXTURE], {
    ruleSet: { forbidden: architectureRules().map(moved) },
    validate: true,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  });
  return (result.output as ICruiseResult).summary.violations.map((v) => `${v.rule.name}: ${v.from.replace(FIXTURE, "")} -> ${v.to.replace(FIXTURE, "")}`);
}
