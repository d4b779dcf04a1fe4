// The fuzz properties, bounded: each runs with its fixed seed for at most its numRuns inputs or its
// time limit (a few seconds), whichever comes first. `npm run fuzz -- --minutes N` runs the same
// properties for as long as asked, with fresh seeds.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { loadProperties } from "./registry.js";
import { BASES, specText } from "./properties/generator.js";
import { generate } from "../../generator/pipeline.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const properties = await loadProperties();

describe("fuzz (bounded, fixed seeds)", () => {
  it("has the properties the report counts on", () => {
    expect(properties.map((p) => p.file)).toEqual(expect.arrayContaining(["generator.ts", "jsonrpc-http.ts", "jsonrpc-stdio.ts", "kinds-stdio.ts", "validate-json.ts"]));
  });

  // Mutations start from valid documents: each base builds as it stands, so the property explores
  // every kind (and prompts) rather than failing at the first line.
  it.each(Object.keys(BASES))("the generator property's %s document builds unmutated", async (base) => {
    const text = specText({ base, mutations: [], json: false, damage: { kind: "none" } });
    const outRoot = join(mkdtempSync(join(tmpdir(), "kervan-fuzz-")), "never-written");
    const result = await generate([{ path: "test/fuzz/fixtures/spec.yaml", text }], { outRoot, check: true, pruneServers: false });
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  for (const { property } of properties) {
    it(property.name, async () => {
      const ctx = await property.setup();
      try {
        const details = await fc.check(
          fc.asyncProperty(property.arbitrary, (value) => property.check(ctx, value)),
          { seed: property.seed, numRuns: property.numRuns, interruptAfterTimeLimit: property.testMs, markInterruptAsFailure: false, endOnFailure: true },
        );
        // At least some inputs ran (a property that never runs proves nothing).
        expect(details.numRuns).toBeGreaterThan(10);
        if (details.failed) {
          const err = details.errorInstance as Error | undefined;
          throw new Error(`${property.name} failed after ${details.numRuns} runs (seed ${details.seed}, path ${details.counterexamplePath}):\n${err?.message ?? String(err)}\ncounterexample: ${JSON.stringify(details.counterexample).replace(/\[{20,}|\]{20,}/g, (m) => `${m[0]}×${m.length}`).slice(0, 2000)}`);
        }
      } finally {
        await property.teardown(ctx);
      }
    }, property.testMs + 60_000);
  }
});
