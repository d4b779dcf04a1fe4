// The generator property, bounded for `npm test`: a fixed seed and a fixed number of documents.
import { describe, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { generatorProperty } from "./properties/generator.js";

describe("fuzz: spec documents through the generator", () => {
  it("always end in diagnostics with a place, or a build; never an exception", async () => {
    const outRoot = join(mkdtempSync(join(tmpdir(), "kervan-fuzz-")), "never-written");
    await fc.assert(generatorProperty(outRoot), { seed: 20261201, numRuns: 100 });
  }, 120_000);
});
