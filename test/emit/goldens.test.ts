// Emitted-code goldens, one small spec per feature under test/fixtures/emit/<feature>/: the exact
// sources it generates (src/: entry, tool modules, types, validators and their declarations) are
// checked in beside it under expected/. A missing golden fails; `npm run update-goldens` rewrites
// them after a reviewed change. (Bundles, manifests and AUDIT.md of the example servers are
// compared byte for byte by `gen --check`.)
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { generate } from "../../generator/pipeline.js";
import { expectGolden, UPDATING } from "../helpers/golden.js";

const DIR = "test/fixtures/emit";
const features = readdirSync(DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

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
  it("has the features", () => expect(features).toEqual(["exec-argv", "http-body", "http-request", "types", "validate-json"]));

  for (const feature of features) {
    it(feature, async () => {
      const specPath = `${DIR}/${feature}/spec.yaml`;
      const out = mkdtempSync(join(tmpdir(), "kervan-emit-"));
      const r = await generate([{ path: specPath, text: readFileSync(specPath, "utf8") }], { outRoot: out, check: false, pruneServers: false });
      expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const src = join(out, r.servers[0], "src");
      const emitted = filesUnder(src).map((f) => relative(src, f)).sort();
      const expectedDir = `${DIR}/${feature}/expected`;
      // Every golden file is emitted, and every emitted file has a golden.
      if (!UPDATING) expect(emitted).toEqual(filesUnder(expectedDir).map((f) => relative(expectedDir, f)).sort());
      for (const file of emitted) expectGolden(join(expectedDir, file), readFileSync(join(src, file), "utf8"));
    }, 60_000);
  }
});
