// The test tree mirrors the source. Under a root holding generator/, templates/ and test/:
// - every folder of generator/ (a folder stage: check/, lint/, emit/, audit/, import/, ...) has
//   test/<folder>/, but the layers below the stages (shared/, model/, parts/), tested through them;
// - every file of generator/ (a file stage: load.ts, normalize.ts, plan.ts, ...) has the test folder
//   of its name's first word (write-staging.ts: test/write/, build-thread.ts: test/build/), or the
//   folder of the stage it belongs to (BESIDE); paths.ts (constants) has none;
// - every kind (generator/kinds/<kind>/, templates/kinds/<kind>/) has test/kinds/<kind>/, spelt as
//   the source spells it, and the registry's own files (generator/kinds/*.ts) have test/kinds/;
// - every other folder of templates/ (runtime/) has test/<folder>/;
// - no test/generator/ grab bag, and no kind's tests at the top (test/exec/, test/validate-json/).
// A test folder counts when it holds a *.test.ts file (at any depth).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Layers below the stages: they have no test folder of their own. */
const BELOW = new Set(["shared", "model", "parts"]);
/** Files with no stage of their own. */
const NO_STAGE = new Set(["paths.ts"]);
/** Files tested in the folder of the stage they belong to (test/architecture/rules.ts STAGES). */
const BESIDE: Record<string, string> = { "manifest.ts": "audit", "cache.ts": "pipeline" };

const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []);
const folders = (dir: string) => entries(dir).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const files = (dir: string) => entries(dir).filter((e) => e.isFile() && e.name.endsWith(".ts")).map((e) => e.name).sort();
const hasTests = (dir: string): boolean => entries(dir).some((e) => (e.isDirectory() ? hasTests(join(dir, e.name)) : e.name.endsWith(".test.ts")));

/** The test folders the source asks for, each with the source that asks, relative to the root. */
export function wantedTestFolders(root: string): Map<string, string> {
  const wanted = new Map<string, string>();
  const want = (folder: string, source: string) => wanted.has(folder) || wanted.set(folder, source);
  for (const f of folders(join(root, "generator")).filter((f) => !BELOW.has(f) && f !== "kinds")) want(`test/${f}`, `generator/${f}/`);
  for (const f of files(join(root, "generator")).filter((f) => !NO_STAGE.has(f))) want(`test/${BESIDE[f] ?? f.replace(/\.ts$/, "").split("-")[0]}`, `generator/${f}`);
  if (files(join(root, "generator/kinds")).length > 0) want("test/kinds", "generator/kinds/*.ts");
  for (const side of ["generator", "templates"]) for (const k of folders(join(root, side, "kinds"))) want(`test/kinds/${k}`, `${side}/kinds/${k}/`);
  for (const f of folders(join(root, "templates")).filter((f) => f !== "kinds")) want(`test/${f}`, `templates/${f}/`);
  return wanted;
}

/** What breaks the mirror: a wanted folder with no test, a grab bag, a kind's tests at the top. */
export function layoutProblems(root: string): string[] {
  const problems = [...wantedTestFolders(root)].filter(([folder]) => !hasTests(join(root, folder))).map(([folder, source]) => `${folder}: no test for ${source}`);
  if (existsSync(join(root, "test/generator"))) problems.push("test/generator: a grab bag; each test goes to the folder of the stage it tests");
  const kinds = new Set([...folders(join(root, "generator/kinds")), ...folders(join(root, "templates/kinds"))]);
  for (const k of [...kinds].sort()) {
    for (const top of new Set([k, k.replaceAll("_", "-")])) if (existsSync(join(root, "test", top))) problems.push(`test/${top}: the ${k} kind's tests go under test/kinds/${k}`);
  }
  return problems;
}
