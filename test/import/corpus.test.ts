// A representative part of the real-document corpus: every 25th API of the vendored APIs.guru
// sample is imported and built with the generator. Each document builds or is refused with a named
// reason; the refusal reasons are printed by count. Each written spec must read back as exactly the
// imported data (corpus.ts readsBack). GitHub's REST description (1,184 operations) is imported and
// built by `npm run corpus` (all of the sample too) and, as a catalog, by `npm run catalog-scale`:
// CI runs both, and npm test does not pay for that import a third time.
import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apisGuruSample } from "./corpus-files.js";
import { importAndBuild, refusalSummary, type Outcome } from "./corpus.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-corpus-test-"));

describe("real API descriptions", () => {
  it("every 25th API of the APIs.guru sample builds or is refused by name", async () => {
    const part = apisGuruSample().filter((_, i) => i % 25 === 0);
    expect(part.length).toBeGreaterThanOrEqual(8);
    const outcomes: Outcome[] = [];
    for (const { id, doc } of part) outcomes.push(await importAndBuild(id, JSON.stringify(doc), { dir, build: true }));
    const lines = outcomes.map((o) => `${o.id}: ${o.status === "built" ? `built, ${o.tools} tools, ${o.skipped} skipped` : o.status === "refused" ? `refused (${o.reason})` : `FAILED ${o.message}`}`);
    process.stdout.write(`${lines.join("\n")}\nrefusal reasons by count:\n${refusalSummary(outcomes).join("\n") || "  none"}\n`);
    expect(outcomes.filter((o) => o.status === "failed")).toEqual([]);
    expect(outcomes.filter((o) => o.status === "built").length).toBeGreaterThanOrEqual(part.length - 1);
    rmSync(dir, { recursive: true, force: true });
  }, 600_000);
});
