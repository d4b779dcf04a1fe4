// The spec-shape check's validator compiled ahead (bin/spec-validator.mjs, written to dist/ by
// bin/prebuild.mjs) is the one the check would compile: the same options, the same errors for the
// bad specs, and it is taken only for the schema it was compiled from.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { parse } from "yaml";
import { Ajv2020 } from "ajv/dist/2020.js";
import { pathToFileURL } from "node:url";
import { SPEC_SHAPE_OPTIONS } from "../../generator/check/spec-shape.js";
import { precompiledValidator } from "../../generator/check/spec-validator.js";
import { schemaHash } from "../../generator/shared/schema-hash.mjs";
import { specSchema } from "../../generator/check/spec-schema.js";

const BAD = "test/fixtures/bad-specs";

const { PRECOMPILED_OPTIONS, specValidatorCode } = (await import(pathToFileURL(join(process.cwd(), "bin/spec-validator.mjs")).href)) as {
  PRECOMPILED_OPTIONS: object;
  specValidatorCode(schema: object): string;
};

/** The CommonJS module's export, run as Node would run dist/spec-validator.cjs (ajv's helpers resolved from the package root). */
function precompiled(schema: object): ((doc: unknown) => boolean) & { errors?: unknown[] | null } {
  const module = { exports: {} as unknown };
  new Function("module", "exports", "require", specValidatorCode(schema))(module, module.exports, createRequire(join(process.cwd(), "package.json")));
  return module.exports as ((doc: unknown) => boolean) & { errors?: unknown[] | null };
}

/** What check/spec-shape.ts reads of an error: where, which rule, its parameters and message, and the properties its parent schema knows. */
function readable(errors: unknown[] | null | undefined): unknown[] {
  return (errors ?? []).map((e) => {
    const { instancePath, schemaPath, keyword, params, message, parentSchema } = e as Record<string, { properties?: object } | undefined>;
    return { instancePath, schemaPath, keyword, params, message, known: Object.keys(parentSchema?.properties ?? {}) };
  });
}

describe("the spec schema's validator compiled ahead", () => {
  it("is compiled with the check's options, its code kept as source", () => {
    expect(PRECOMPILED_OPTIONS).toEqual({ ...SPEC_SHAPE_OPTIONS, code: { source: true } });
  });

  it("records the hash the check computes for the same schema", () => {
    const recorded = (precompiled(specSchema()) as unknown as { schemaHash: string }).schemaHash;
    expect(recorded).toBe(schemaHash(specSchema()));
    expect(schemaHash({ ...specSchema(), title: "another" })).not.toBe(recorded);
  });

  it("finds the errors the check's own compile finds, for every bad spec", () => {
    const ahead = precompiled(specSchema());
    const here = new Ajv2020(SPEC_SHAPE_OPTIONS).compile(specSchema());
    let faulted = 0;
    for (const name of readdirSync(BAD).filter((f) => f.endsWith(".yaml"))) {
      let doc: unknown;
      try {
        doc = parse(readFileSync(join(BAD, name), "utf8"));
      } catch {
        continue; // not YAML: the load reports it, the shape check never sees it
      }
      expect(ahead(doc), name).toBe(here(doc));
      expect(readable(ahead.errors), name).toEqual(readable(here.errors));
      if (here.errors?.length) faulted++;
    }
    expect(faulted).toBeGreaterThan(3);
  });

  it("is not taken from the sources, nor for a schema it was not compiled from", () => {
    expect(precompiledValidator(specSchema())).toBeUndefined();
    expect(precompiledValidator({ ...specSchema(), title: "another" }, true)).toBeUndefined();
  });
});
