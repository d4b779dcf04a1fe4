// Emitted-code goldens, one small spec per feature: the exact sources it generates (src/: entry,
// tool modules, types, validators and their declarations) are checked in beside it under expected/.
// Each kind owns its goldens: a registered kind's are test/fixtures/emit/<key>-<feature>/ (or
// <key>/), a fixture kind's are test/fixtures/kinds/<key>/emit/<feature>/, and every kind has at
// least one; a folder of test/fixtures/emit named after no kind is a common feature (types). A
// missing golden fails; `npm run update-goldens` rewrites them after a reviewed change. (Bundles,
// manifests and AUDIT.md of the example servers are compared byte for byte by `gen --check`.)
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { generate } from "../../generator/pipeline.js";
import { expectGolden, UPDATING } from "../helpers/golden.js";
import { allKinds, registeredKinds } from "../../generator/kinds/index.js";
import { addFixtureKinds, FIXTURE_KINDS } from "../helpers/fixture-kinds.js";

const DIR = "test/fixtures/emit";
const dirsIn = (dir: string) => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : []);
const fixtureKinds = await addFixtureKinds();
// Each golden folder (its spec.yaml and expected/), registered kinds' and common ones first.
const features = [
  ...dirsIn(DIR).map((name) => `${DIR}/${name}`),
  ...fixtureKinds.flatMap((k) => dirsIn(`${FIXTURE_KINDS}/${k.key}/emit`).map((name) => `${FIXTURE_KINDS}/${k.key}/emit/${name}`)),
];
/** The kind a golden folder belongs to, when it belongs to one. */
function ownerOf(folder: string): string | undefined {
  const fixture = folder.match(new RegExp(`^${FIXTURE_KINDS}/([^/]+)/emit/`));
  if (fixture) return fixture[1];
  const name = folder.slice(DIR.length + 1);
  return registeredKinds().find((k) => name === k.key || name.startsWith(`${k.key}-`))?.key;
}

function filesUnder(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else out.push(p);
  }
  return out;
}

describe("emitted code by feature", () => {
  it("has the features", () =>
    expect(features).toEqual([`${DIR}/exec-argv`, `${DIR}/http-body`, `${DIR}/http-request`, `${DIR}/types`, `${DIR}/validate_json`, `${FIXTURE_KINDS}/echo/emit/prefix`]));

  it("every kind owns at least one golden, named by its key", () => {
    for (const kind of allKinds()) expect(features.filter((f) => ownerOf(f) === kind.key), kind.key).not.toEqual([]);
    // A folder that names no kind is common: it must not look like a kind's (a key before a dash).
    expect(features.filter((f) => !ownerOf(f)).map((f) => f.slice(DIR.length + 1))).toEqual(["types"]);
  });

  for (const feature of features) {
    it(feature, async () => {
      const specPath = `${feature}/spec.yaml`;
      const out = mkdtempSync(join(tmpdir(), "kervan-emit-"));
      const r = await generate([{ path: specPath, text: readFileSync(specPath, "utf8") }], { outRoot: out, check: false, pruneServers: false });
      expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const src = join(out, r.servers[0], "src");
      const emitted = filesUnder(src).map((f) => relative(src, f)).sort();
      const expectedDir = `${feature}/expected`;
      // Every golden file is emitted, and every emitted file has a golden.
      if (!UPDATING) expect(emitted).toEqual(filesUnder(expectedDir).map((f) => relative(expectedDir, f)).sort());
      for (const file of emitted) expectGolden(join(expectedDir, file), readFileSync(join(src, file), "utf8"));
    }, 60_000);
  }
});
