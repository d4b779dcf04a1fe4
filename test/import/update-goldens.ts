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
const source = join(dir, "notes-api.yaml");
copyFileSync(join(FIXTURES, "reimport", "v1.yaml"), source);
kervan(["import", "notes-api.yaml", "--out", "notes.yaml"], dir);
copyFileSync(join(FIXTURES, "reimport", "v2.yaml"), source);
const r = kervan(["import", "notes-api.yaml", "--out", "notes.yaml"], dir);
writeFileSync(REIMPORT_GOLDEN, r.stdout);
console.log(`wrote ${REIMPORT_GOLDEN} (exit ${r.code})`);
