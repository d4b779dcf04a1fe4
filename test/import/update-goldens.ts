// Rewrites the golden files of `kervan import` (npm run goldens:import). Review the diff before committing.
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { CASES, FIXTURES, GOLDEN, goldenPath, REIMPORT_GOLDEN } from "./cases.js";
import { kervan } from "./run-import.js";

mkdirSync(GOLDEN, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), "kervan-goldens-"));
for (const c of CASES) {
  const out = join(dir, basename(goldenPath(c)));
  const r = kervan(["import", join("rules", c.file), "--out", out, ...c.args], join(FIXTURES));
  if (r.code !== 0) throw new Error(`${c.file}: ${r.stderr}`);
  writeFileSync(goldenPath(c), readFileSync(out, "utf8"));
  console.log(`wrote ${goldenPath(c)}`);
}
const spec = join(dir, "notes.yaml");
kervan(["import", "reimport/v1.yaml", "--out", spec], FIXTURES);
copyFileSync(spec, join(dir, "notes-v1.yaml"));
const r = kervan(["import", "reimport/v2.yaml", "--out", spec], FIXTURES);
writeFileSync(REIMPORT_GOLDEN, r.stdout);
console.log(`wrote ${REIMPORT_GOLDEN} (exit ${r.code})`);
