// The importer measures a schema with the check stage's own walk: a schema the import keeps is one
// the check takes, and one the check refuses for its size the import skips with the check's reason.
import { describe, expect, it } from "vitest";
import type { Json } from "../../templates/runtime/types.js";
import { checkSchemaLimits } from "../../generator/check/schema-limits.js";
import type { SchemaProblem } from "../../generator/shared/schema-walk.js";
import { SchemaCompiler } from "../../generator/shared/schema-compiler.js";
import { fitsLimits, limitBroken } from "../../generator/import/limits.js";

const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i}`, { type: "string" }]));
const sizeProblems = (schema: Json) => {
  const problems: SchemaProblem[] = [];
  checkSchemaLimits(schema, problems, new SchemaCompiler());
  return problems.filter((p) => ["KV504", "KV505", "KV506", "KV507"].includes(p.code));
};

describe("import/limits measures as the check counts", () => {
  const cases: Array<[string, Json]> = [
    ["2,100 definitions", { type: "object", definitions: many(2100) }],
    ["2,100 $defs", { type: "object", $defs: many(2100) }],
    ["2,100 additionalItems", { type: "array", prefixItems: [{}], additionalItems: Array.from({ length: 2100 }, () => ({ type: "string" })) }],
    ["33 levels under additionalItems", Array.from({ length: 33 }).reduce<Json>((inner) => ({ additionalItems: inner }), { type: "string" })],
    ["65 anyOf under definitions", { definitions: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`d${i}`, { anyOf: [{ type: "string" }] }])) }],
  ];
  for (const [name, schema] of cases) {
    it(`${name}: the check refuses it and the import skips it with the same reason`, () => {
      const [problem] = sizeProblems(schema);
      expect(problem).toBeDefined();
      expect(limitBroken(schema)).toBe(`${problem.message} (${problem.code})`);
      expect(fitsLimits(schema)).toBe(false);
    });
  }

  it("2,100 definitions: KV505 in both", () => {
    const schema: Json = { type: "object", definitions: many(2100) };
    expect(sizeProblems(schema).map((p) => p.code)).toEqual(["KV505"]);
    expect(limitBroken(schema)).toBe("schema has 2101 subschemas; the limit is 2000 (KV505)");
  });

  it("a schema within the limits passes both", () => {
    const schema: Json = { type: "object", definitions: many(100), properties: { a: { $ref: "#/definitions/d1" } } };
    expect(sizeProblems(schema)).toEqual([]);
    expect(limitBroken(schema)).toBeUndefined();
    expect(fitsLimits(schema)).toBe(true);
  });
});
