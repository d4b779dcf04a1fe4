// The tool through its handler: answers, feedback shape, refusal sentences, and the definition.
import { afterAll, describe, expect, it } from "vitest";
import { createValidateJsonHandler } from "../../../templates/kinds/validate_json/handler.js";
import { validateJsonDefinition } from "../../../templates/kinds/validate_json/definition.js";

const handler = createValidateJsonHandler({ prewarm: false });
afterAll(() => handler.close());
const call = (output: string, schema: object) => handler({ output, schema }, { signal: new AbortController().signal, era: "2026-07-28" });
const person = {
  type: "object",
  required: ["name", "age"],
  properties: { name: { type: "string", minLength: 1 }, age: { type: "integer", minimum: 0 }, tags: { type: "array", items: { type: "string" } } },
  additionalProperties: false,
};

describe("validate_json handler", () => {
  it("answers valid with null feedback", async () => {
    const r = await call('{"name":"Ada","age":36}', person);
    expect(r).toEqual({ value: { valid: true, feedback: null }, text: '{"valid":true,"feedback":null}' });
  });

  it("puts one primary failure first, then the others, with pointers, keywords and quoted values", async () => {
    const r = await call('Sure: {"name":"","age":-1,"tags":["a",7],"x":true}', person);
    const fb = (r.value as { feedback: string }).feedback;
    expect(r.isError).toBeUndefined();
    expect(fb.split("\n")[0]).toBe('The document does not satisfy the schema at /name (minLength, schema #/properties/name/minLength): must have at least 1 characters; has 0: "".');
    expect(fb).toContain("- at /age (minimum, schema #/properties/age/minimum): must be >= 0; found -1");
    expect(fb).toContain("- at /tags/1 (type, schema #/properties/tags/items/type): must be string; found integer 7");
    expect(fb).toContain('- at /x (additionalProperties, schema #/additionalProperties): property "x" is not allowed');
  });

  it("clips quoted values to 200 characters on a code-point boundary", async () => {
    const long = "😀".repeat(300);
    const r = await call(JSON.stringify({ name: long, age: "x" }), { properties: { name: { maxLength: 5 } } });
    const fb = (r.value as { feedback: string }).feedback;
    expect(fb).toContain(`"${"😀".repeat(199)}… (clipped; 302 characters in all)`);
    expect(fb).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it("says which alternative came closest for anyOf", async () => {
    const r = await call('{"kind":"a","n":"1"}', { anyOf: [{ type: "array" }, { properties: { n: { type: "number" } } }] });
    expect((r.value as { feedback: string }).feedback).toMatch(/matches none of the 2 alternatives of anyOf; value: \{.*\}\. Closest alternative fails at \/n \(type, schema #\/anyOf\/1\/properties\/n\/type\): must be number; found string "1"/);
  });

  it("selects the draft by $schema", async () => {
    const d4 = { $schema: "http://json-schema.org/draft-04/schema#", maximum: 5, exclusiveMaximum: true };
    expect((await call("5", d4)).value).toMatchObject({ valid: false });
    expect((await call("5", { maximum: 5, exclusiveMaximum: 6 })).value).toMatchObject({ valid: true });
  });

  it("reports not-JSON output as invalid with the parse position", async () => {
    const r = await call('{"name":"Ada",}', person);
    expect(r.value).toMatchObject({ valid: false });
    expect((r.value as { feedback: string }).feedback).toMatch(/^Not JSON: .*position 14\): trailing comma/);
  });

  it.each([
    [{ $ref: "https://example.com/s.json" }, /^Refused: the schema's \$ref "https:\/\/example.com\/s.json" at #\/\$ref points outside the given schema/],
    [{ $defs: { a: { $id: "a.json" } } }, /^Refused: the schema sets an embedded \$id "a.json" at #\/\$defs\/a;/],
    [{ $schema: "https://example.com/meta" }, /^Refused: \$schema "https:\/\/example.com\/meta" is not one of/],
    [{ pattern: "(?i)abc" }, /^Refused: the pattern "\(\?i\)abc" at #\/pattern uses an inline flag group/],
    [{ pattern: "(?<=a)b" }, /uses a look-behind/],
    [{ $ref: "#/$defs/missing" }, /does not lead to a schema inside the given schema/],
    [{ $defs: { a: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" }, /^Refused: the document or schema nests too deeply/],
  ])("refuses %j with its own sentence as a tool error", async (schema, sentence) => {
    const r = await call("1", schema);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(sentence);
    expect(r.value).toEqual({ valid: false, feedback: r.text });
  });

  it("is defined as the contract says", () => {
    const d = validateJsonDefinition;
    expect(d.name).toBe("validate_json");
    expect(d.inputSchema.required).toEqual(["output", "schema"]);
    expect(d.outputSchema.required).toEqual(["valid", "feedback"]);
    expect(d.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false, destructiveHint: false, idempotentHint: true });
    for (const phrase of ["{valid, feedback}", "200 characters", "feedback is null", "bare JSON value", "first fenced code block",
      "draft-04", "2020-12 (the default)", "(#, #/..., #name)", "remote reference", "embedded $id", "never fetched", "Python re",
      "inline flags", "look-behind", "backreferences", "atomic, possessive or conditional groups", "\\N{...}", "500 ms",
      "refusal sentence naming the pattern", "not a partial validation", "Reads nothing but its two arguments and writes nothing"]) {
      expect(d.description).toContain(phrase);
    }
  });
});
