// `npm run corpus`: imports GitHub's REST description and the vendored APIs.guru sample and builds
// every import with the generator. Fails when a document neither builds nor is refused by name, or
// when fewer than 98% of the sample build. Prints refusal reasons by count.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apisGuruSample, githubDescription } from "./corpus-files.js";
import { importAndBuild, refusalSummary, type Outcome } from "./corpus.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-corpus-"));
const started = performance.now();
const outcomes: Outcome[] = [];
const sample = apisGuruSample();
for (const [i, { id, doc }] of sample.entries()) {
  const o = await importAndBuild(id, JSON.stringify(doc), { dir, build: true });
  outcomes.push(o);
  const what = o.status === "built" ? `built, ${o.tools} tools (${o.skipped} operations skipped), import ${Math.round(o.importMs)} ms, gen ${Math.round(o.genMs)} ms` : o.status === "refused" ? `refused (${o.reason})` : `FAILED: ${o.message.slice(0, 300)}`;
  process.stdout.write(`[${i + 1}/${sample.length}] ${id}: ${what}\n`);
  rmSync(join(dir, id.replace(/[^A-Za-z0-9._-]+/g, "_")), { recursive: true, force: true });
}
const github = await importAndBuild("api.github.com", githubDescription().toString("utf8"), { dir, build: true });
const built = outcomes.filter((o) => o.status === "built").length;
const failed = outcomes.filter((o) => o.status === "failed");
process.stdout.write(`\nGitHub REST description: ${github.status === "built" ? `built, ${github.tools} tools, ${github.skipped} operations skipped, import ${Math.round(github.importMs)} ms, gen ${Math.round(github.genMs)} ms` : github.status === "refused" ? `refused (${github.reason}): ${github.message}` : `FAILED: ${github.message}`}\n`);
process.stdout.write(`APIs.guru sample: ${built} of ${outcomes.length} built (${((100 * built) / outcomes.length).toFixed(1)}%), ${outcomes.length - built - failed.length} refused, ${failed.length} failed, in ${Math.round((performance.now() - started) / 1000)} s\n`);
process.stdout.write(`Refusal reasons by count:\n${refusalSummary(outcomes).join("\n") || "  none"}\n`);
rmSync(dir, { recursive: true, force: true });
const ok = github.status === "built" && !failed.length && built / outcomes.length >= 0.98;
if (!ok) process.stdout.write(`corpus: FAILED (${failed.map((f) => f.id).join(", ") || (github.status !== "built" ? "GitHub" : "under 98% built")})\n`);
process.exitCode = ok ? 0 : 1;
