// Keyword values are looked up in the tool's own tables, never through Object.prototype: a type or
// format named like an inherited member ("constructor", "toString", "__proto__" ...) is an unknown
// name, and absurdly deep schemas get the refusal sentence, not a stack-overflow message.
import { afterAll, describe, expect, it } from "vitest";
import { createValidateJsonHandler } from "../../../templates/kinds/validate_json/handler.js";

const handler = createValidateJsonHandler({ prewarm: false });
afterAll(() => handler.close());
const call = (output: string, schema: object) => handler({ output, schema }, { signal: new AbortController().signal, era: "2026-07-28" });
const INHERITED = ["constructor", "toString", "hasOwnProperty", "__proto__", "valueOf", "isPrototypeOf"];
const TYPES = "array, boolean, integer, null, number, object or string";

describe("names inherited from Object.prototype", () => {
  it.each(INHERITED)("type %j is refused as not a JSON Schema type", async (name) => {
    const schema = JSON.parse(`{"type": ${JSON.stringify(name)}}`);
    for (const doc of ["5", '"text"', "{}", "null"]) {
      const r = await call(doc, schema);
      expect(r.isError, doc).toBe(true);
      expect(r.text).toBe(`Refused: the schema is malformed at #/type: ${JSON.stringify(name)} is not a JSON Schema type (${TYPES}).`);
    }
    const inList = await call('"text"', JSON.parse(`{"type": ["string", ${JSON.stringify(name)}]}`));
    expect(inList.text).toBe(`Refused: the schema is malformed at #/type/1: ${JSON.stringify(name)} is not a JSON Schema type (${TYPES}).`);
  });

  it.each(INHERITED)("draft-07 format %j is an unknown format: an annotation that accepts every string", async (name) => {
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", type: "string", format: name };
    expect((await call('"anything at all"', schema)).value).toEqual({ valid: true, feedback: null });
  });

  it("known types and formats still work", async () => {
    expect((await call('"x"', { type: "integer" })).value).toMatchObject({ valid: false });
    const date = { $schema: "http://json-schema.org/draft-07/schema#", format: "date" };
    expect((await call('"2026-02-30"', date)).value).toMatchObject({ valid: false });
  });

  it("a property named __proto__ is an ordinary property of schema and document", async () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__","constructor"]}');
    const bad = await call('{"__proto__": 5, "constructor": 1}', schema);
    expect((bad.value as { feedback: string }).feedback).toContain("/__proto__");
    const missing = await call('{"__proto__": "x"}', schema);
    expect((missing.value as { feedback: string }).feedback).toContain('"constructor"');
    expect((await call('{"__proto__": "x", "constructor": 1}', schema)).value).toEqual({ valid: true, feedback: null });
  });

  it("a $ref to an inherited member does not resolve", async () => {
    const r = await call("1", { $ref: "#/$defs/constructor", $defs: {} });
    expect(r.text).toMatch(/^Refused: the schema's \$ref "#\/\$defs\/constructor" at #\/\$ref does not lead to a schema inside the given schema\.$/);
  });
});

describe("absurd nesting", () => {
  const TOO_DEEP = "Refused: the document or schema nests too deeply to validate.";

  it.each([
    ["items", (n: number) => '{"items":'.repeat(n) + "{}" + "}".repeat(n)],
    ["not", (n: number) => '{"not":'.repeat(n) + "{}" + "}".repeat(n)],
    ["allOf", (n: number) => '{"allOf":['.repeat(n) + "{}" + "]}".repeat(n)],
    ["properties", (n: number) => '{"properties":{"a":'.repeat(n) + "{}" + "}}".repeat(n)],
  ])("a schema nested 100,000 deep through %s gets the refusal sentence", async (_kw, text) => {
    const r = await call("[]", JSON.parse(text(100_000)));
    expect(r.isError).toBe(true);
    expect(r.text).toBe(TOO_DEEP);
  });

  it("a document nested 100,000 deep under a recursive schema gets the refusal sentence", async () => {
    const doc = "[".repeat(100_000) + "]".repeat(100_000);
    const r = await call(doc, { items: { $ref: "#" } });
    expect(r.text).toBe(TOO_DEEP);
  });
});
