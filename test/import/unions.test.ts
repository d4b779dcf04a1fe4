// Unions no value can satisfy: a oneOf with a discriminator and no mapping whose branches pin the
// property with their own enum or const takes each branch's own value (not the schema's name as
// well); an operation whose input schema still cannot be satisfied is skipped with the reason. The
// imported schemas are judged by ajv on the arguments a client would send, and by generated examples.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { FIXTURES } from "./cases.js";
import { kervan } from "./run-import.js";
import { exampleOf, unsatisfiable } from "../../generator/import/examples.js";
import { examplesFail } from "./corpus.js";
import type { Json } from "../../templates/runtime/types.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-import-unions-"));
const out = join(dir, "pets.yaml");
const r = kervan(["import", "rules/pinned-union.yaml", "--out", out], FIXTURES);
const spec = r.code === 0 ? (parse(readFileSync(out, "utf8")) as { tools: Array<{ name: string; input: Record<string, unknown> }> }) : { tools: [] };
const input = (name: string) => spec.tools.find((t) => t.name === name)?.input;

describe("imported unions", () => {
  it("a branch that pins the discriminator with its own enum or const accepts its own value", () => {
    expect(r.code).toBe(0);
    const validate = new Ajv2020({ strict: false }).compile(input("add_pet")!);
    expect(validate({ body: { petType: "cat", meows: true } })).toBe(true);
    expect(validate({ body: { petType: "dog", barks: true } })).toBe(true);
    expect(validate({ body: { petType: "bird", wingspan: 0.3 } })).toBe(true);
    // A branch that does not pin it takes the implied value (the schema's name).
    expect(validate({ body: { petType: "Fish" } })).toBe(true);
    expect(validate({ body: { petType: "Cat", meows: true } })).toBe(false);
  });

  it("every branch of the union has a generated example that the schema accepts", () => {
    const schema = input("add_pet")!;
    expect(unsatisfiable(schema as Json)).toBeUndefined();
    const example = exampleOf(schema as Json);
    expect("value" in example && new Ajv2020({ strict: false }).compile(schema)(example.value)).toBe(true);
  });

  it("an operation whose mapping contradicts its branches is reported, not written", () => {
    expect(input("add_mapped_pet")).toBeUndefined();
    expect(r.stderr).toMatch(/POST \/pets\/mapped \(addMappedPet\): its input schema cannot be satisfied: .*(kitten|puppy)/);
    expect(readFileSync(out, "utf8")).toMatch(/# +POST \/pets\/mapped \(addMappedPet\): its input schema cannot be satisfied/);
  });

  it("the corpus check refuses the union the importer used to write, and an example its schema refuses", () => {
    // What a discriminator without mapping became before: the implied name on top of the branch's own enum.
    const before = { type: "object", properties: { body: { oneOf: [{ type: "object", allOf: [{ type: "object", properties: { petType: { type: "string", enum: ["cat"] } }, required: ["petType"] }], properties: { petType: { const: "Cat" } }, required: ["petType"] }] } }, required: ["body"] };
    expect(unsatisfiable(before as Json)).toMatch(/property "body": no branch of a union can be satisfied .*property "petType": no value is allowed by const "Cat" and enum \["cat"\]/);
    expect(examplesFail({ tools: [{ name: "add_pet", input: before }] })).toMatch(/tool add_pet: its input schema has no example/);
    // Bounds that cross: no example.
    const refused = { type: "object", properties: { n: { type: "integer", maximum: -5, minimum: -3 } }, required: ["n"] };
    expect(examplesFail({ tools: [{ name: "t", input: refused }] })).toMatch(/tool t: /);
  });
});
