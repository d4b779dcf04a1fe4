// `kervan import` of one small document per mapping rule, compared byte for byte with the checked-in
// golden spec (rewritten only by `npm run goldens:import`), and the re-import changelog of a changed
// document. Every golden must also pass the generator's check stage.
import { describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { checkSources } from "../../generator/pipeline.js";
import { CASES, FIXTURES, goldenPath, REIMPORT_GOLDEN } from "./cases.js";
import { kervan } from "./run-import.js";

const golden = (path: string) => {
  if (!existsSync(path)) throw new Error(`missing golden ${path}: run \`npm run goldens:import\` and review it`);
  return readFileSync(path, "utf8");
};

describe("kervan import goldens", () => {
  const dir = mkdtempSync(join(tmpdir(), "kervan-import-"));
  for (const c of CASES) {
    it(`${c.file}: ${c.rule}`, () => {
      const out = join(dir, basename(goldenPath(c)));
      const r = kervan(["import", join("rules", c.file), "--out", out, ...c.args], FIXTURES);
      expect(r.stderr).toMatch(/tools? written/);
      expect(r.code).toBe(0);
      const text = readFileSync(out, "utf8");
      expect(text).toBe(golden(goldenPath(c)));
      const errors = checkSources([{ path: out, text }]).diagnostics.filter((d) => d.severity === "error");
      expect(errors).toEqual([]);
    });
  }

  it("imports the same document to the same bytes twice", () => {
    const [a, b] = [1, 2].map(() => join(mkdtempSync(join(tmpdir(), "kervan-import-")), "bodies.yaml"));
    kervan(["import", "rules/bodies.yaml", "--out", a], FIXTURES);
    kervan(["import", "rules/bodies.yaml", "--out", b], FIXTURES);
    expect(readFileSync(a, "utf8")).toBe(readFileSync(b, "utf8"));
  });

  it("re-import prints the changelog, exits 1 on a breaking change and writes only with --accept", () => {
    // The API changes under the same file name: v1, then v2, at one path.
    const work = mkdtempSync(join(tmpdir(), "kervan-import-reimport-"));
    const source = join(work, "notes-api.yaml");
    const spec = join(work, "notes.yaml");
    copyFileSync(join(FIXTURES, "reimport", "v1.yaml"), source);
    expect(kervan(["import", "notes-api.yaml", "--out", "notes.yaml"], work).code).toBe(0);
    const v1 = readFileSync(spec, "utf8");
    const again = kervan(["import", "notes-api.yaml", "--out", "notes.yaml"], work);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/unchanged/);
    copyFileSync(join(FIXTURES, "reimport", "v2.yaml"), source);
    const r = kervan(["import", "notes-api.yaml", "--out", "notes.yaml"], work);
    expect(r.stdout).toBe(golden(REIMPORT_GOLDEN));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/breaks clients.*--accept/s);
    expect(readFileSync(spec, "utf8")).toBe(v1);
    const accepted = kervan(["import", "notes-api.yaml", "--out", "notes.yaml", "--accept"], work);
    expect(accepted.code).toBe(0);
    expect(readFileSync(spec, "utf8")).not.toBe(v1);
    expect(readFileSync(spec, "utf8")).toMatch(/archive_note/);
  });

  it("a non-breaking re-import is written without --accept", () => {
    const spec = join(dir, "notes-nb.yaml");
    copyFileSync(join(FIXTURES, "reimport", "v1.yaml"), join(dir, "v1.yaml"));
    expect(kervan(["import", join(dir, "v1.yaml"), "--out", spec, "--name", "notes"]).code).toBe(0);
    const changed = readFileSync(join(dir, "v1.yaml"), "utf8").replace("summary: List notes\n", "summary: List all notes\n");
    expect(changed).not.toBe(readFileSync(join(dir, "v1.yaml"), "utf8"));
    writeFileSync(join(dir, "v1.yaml"), changed);
    const r = kervan(["import", join(dir, "v1.yaml"), "--out", spec, "--name", "notes"]);
    expect(r.stdout).toMatch(/0 breaking/);
    expect(r.code).toBe(0);
    expect(readFileSync(spec, "utf8")).toMatch(/List all notes/);
  });
});
