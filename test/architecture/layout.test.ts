// The test tree mirrors generator/ and templates/ (the rule: test/architecture/layout.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { layoutProblems, wantedTestFolders } from "./layout.js";

function tree(paths: string[]): string {
  const root = mkdtempSync(join(tmpdir(), "kervan-layout-"));
  for (const p of paths) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), "");
  }
  return root;
}

describe("the test tree", () => {
  it("has a test folder for every stage, kind and runtime folder, and no grab bag", () => {
    const wanted = [...wantedTestFolders(".").keys()];
    expect(wanted).toEqual(expect.arrayContaining(["test/check", "test/load", "test/normalize", "test/plan", "test/lint", "test/emit", "test/bundle", "test/write", "test/audit"]));
    expect(wanted).toEqual(expect.arrayContaining(["test/kinds/exec", "test/kinds/http", "test/kinds/validate_json", "test/runtime", "test/cli", "test/deploy"]));
    expect(layoutProblems(".")).toEqual([]);
  });

  it("finds a stage without tests, a kind without its folder, a grab bag and a kind's tests at the top", () => {
    const root = tree([
      "generator/check/index.ts",
      "generator/shared/hash.ts",
      "generator/plan.ts",
      "generator/write-staging.ts",
      "generator/paths.ts",
      "generator/kinds/index.ts",
      "generator/kinds/no_op/index.ts",
      "templates/runtime/index.ts",
      "test/check/rules.test.ts",
      "test/write/helpers.ts",
      "test/kinds/registry.test.ts",
      "test/generator/plan.test.ts",
      "test/no-op/run.test.ts",
    ]);
    expect(layoutProblems(root)).toEqual([
      "test/plan: no test for generator/plan.ts",
      "test/write: no test for generator/write-staging.ts",
      "test/kinds/no_op: no test for generator/kinds/no_op/",
      "test/runtime: no test for templates/runtime/",
      "test/generator: a grab bag; each test goes to the folder of the stage it tests",
      "test/no-op: the no_op kind's tests go under test/kinds/no_op",
    ]);
  });
});
