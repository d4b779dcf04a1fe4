// Arbitrary JSON Schemas and documents for validate_json: real keywords with odd values, names that
// shadow Object.prototype members, Python patterns good, refused and catastrophic, $refs that resolve,
// loop or point outside, and documents from plain values to deep nesting and prose around JSON.
import fc from "fast-check";

const TYPES = ["null", "boolean", "object", "array", "number", "integer", "string", "constructor", "toString", "__proto__", "any"];
const PATTERNS = ["^[a-z]+$", "^(a+)+$", "^(a|aa)+$", "\\d{3}-\\d{4}", "(?i)abc", "(?<=a)b", "\\N{DASH}", "[", "a{2,1}", "^\\w+@\\w+\\.com$", "(?P<x>a)(?P=x)", "", ".*"];
const FORMATS = ["date", "time", "date-time", "email", "ipv4", "uuid", "isPrototypeOf", "hasOwnProperty", "uri", "regex"];
const DRAFTS = [
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2019-09/schema",
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-06/schema#",
  "http://json-schema.org/draft-04/schema#",
  "http://example.com/not-a-draft",
];
const REFS = ["#", "#/$defs/a", "#/definitions/a", "#/properties/x", "#/$defs/constructor", "#a", "https://example.com/s.json", "#/items/0", "other.json#/x"];

const name = fc.constantFrom("a", "b", "x", "__proto__", "constructor", "hasOwnProperty", "toString", "");
const small = fc.jsonValue({ maxDepth: 2 });

export const schemaArb: fc.Arbitrary<unknown> = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.boolean(),
    fc.record(
      {
        $schema: fc.constantFrom(...DRAFTS),
        type: fc.oneof(fc.constantFrom(...TYPES), fc.array(fc.constantFrom(...TYPES), { maxLength: 3 }), small),
        properties: fc.dictionary(name, tie("schema"), { maxKeys: 3 }),
        patternProperties: fc.dictionary(fc.constantFrom(...PATTERNS), tie("schema"), { maxKeys: 2 }),
        additionalProperties: tie("schema"),
        required: fc.oneof(fc.array(name, { maxLength: 3 }), small),
        items: fc.oneof(tie("schema"), fc.array(tie("schema"), { maxLength: 2 })),
        prefixItems: fc.array(tie("schema"), { maxLength: 2 }),
        enum: fc.array(small, { maxLength: 3 }),
        const: small,
        minimum: fc.oneof(fc.integer(), fc.double(), small),
        maximum: fc.integer(),
        multipleOf: fc.oneof(fc.double({ min: 1e-9, max: 1e3, noNaN: true }), fc.integer()),
        minLength: fc.oneof(fc.nat(5), fc.integer()),
        maxItems: fc.nat(3),
        pattern: fc.oneof(fc.constantFrom(...PATTERNS), fc.string({ maxLength: 12 })),
        format: fc.constantFrom(...FORMATS),
        allOf: fc.array(tie("schema"), { maxLength: 2 }),
        anyOf: fc.array(tie("schema"), { maxLength: 2 }),
        oneOf: fc.array(tie("schema"), { maxLength: 2 }),
        not: tie("schema"),
        if: tie("schema"),
        then: tie("schema"),
        else: tie("schema"),
        $ref: fc.constantFrom(...REFS),
        $defs: fc.dictionary(name, tie("schema"), { maxKeys: 2 }),
        definitions: fc.dictionary(name, tie("schema"), { maxKeys: 2 }),
        $id: fc.constantFrom("#a", "https://example.com/x", "sub"),
        $anchor: fc.constantFrom("a", "b"),
        unevaluatedProperties: tie("schema"),
        contains: tie("schema"),
        dependencies: fc.dictionary(name, fc.oneof(tie("schema"), fc.array(name, { maxLength: 2 })), { maxKeys: 2 }),
      },
      { requiredKeys: [] },
    ),
  ),
})).schema;

const deep = fc.integer({ min: 1, max: 6000 }).map((n) => "[".repeat(n) + "]".repeat(n));

/** The text handed to validate_json as `output`. */
export const documentArb: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.record({ a: fc.string(), x: fc.jsonValue({ maxDepth: 2 }), constructor: small }).map((v) => JSON.stringify(v)),
  fc.constantFrom("a".repeat(40) + "b", "aaaa", "2026-02-30", "x@y.com").map((s) => JSON.stringify(s)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => "Here you go:\n```json\n" + JSON.stringify(v, null, 2) + "\n```\nDone."),
  deep,
  fc.string({ maxLength: 60 }),
);
