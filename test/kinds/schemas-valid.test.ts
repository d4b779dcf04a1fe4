// The spec schema and every kind's block schema are valid JSON Schema 2020-12: the check compiles
// them without asking ajv to validate them against the meta-schema (generator/check/spec-shape.ts,
// generator/kinds/types.ts), so this is where a broken one is caught.
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { specSchema } from "../../generator/check/spec-schema.js";
import { allKinds } from "../../generator/kinds/index.js";

describe("the generator's own schemas", () => {
  const ajv = new Ajv2020({ strict: false });

  it("kervan.schema.json is valid against the 2020-12 meta-schema", () => {
    expect(ajv.validateSchema(specSchema()), ajv.errorsText()).toBe(true);
  });

  it("each kind's block schema is valid against the 2020-12 meta-schema", () => {
    for (const kind of allKinds()) expect(ajv.validateSchema(kind.schema), `${kind.key}: ${ajv.errorsText()}`).toBe(true);
  });

  it("a schema that breaks the meta-schema is refused (the test can fail)", () => {
    expect(ajv.validateSchema({ type: 12 })).toBe(false);
  });
});
