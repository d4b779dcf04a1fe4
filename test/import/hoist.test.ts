// The `$defs` hoisting of imported schemas (generator/import/hoist.ts): repeated subschemas become
// `$defs` entries named after their component (else a hash), the root and its own properties stay in
// place, nothing is hoisted that does not shorten the schema, and on random schemas built with
// repeated parts the hoisted schema accepts and refuses exactly what the original does (and an
// http tool's value loses the same optional nulls).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hoistSchema } from "../../generator/import/hoist.js";
import { noteOrigin } from "../../generator/import/origin.js";
import { importOpenApi } from "../../generator/import/importer.js";
import { measureSchema } from "../../generator/shared/schema-walk.js";
import { nullPlan } from "../../templates/kinds/http/nulls.js";
import type { Json } from "../../templates/runtime/types.js";
import { argumentsFor, strictAjv, verdict } from "./hoist-samples.js";

type Obj = Record<string, Json>;
const len = (s: unknown) => JSON.stringify(s).length;

const address: Obj = { type: "object", properties: { street: { type: "string", description: "Street and number." }, city: { type: "string", minLength: 1 } }, required: ["city"] };
const shipping = (): Obj => ({
  type: "object",
  properties: {
    order: { type: "object", properties: { from: structuredClone(address), to: structuredClone(address) } },
    returns: { type: "array", items: structuredClone(address) },
  },
  additionalProperties: false,
});

describe("hoisting repeated subschemas into $defs", () => {
  it("hoists a repeated subschema below the root's properties, named by a hash of its JSON when it has no component", () => {
    const schema = shipping();
    const out = hoistSchema(schema) as Obj;
    const defs = out.$defs as Obj;
    expect(Object.keys(defs)).toHaveLength(1);
    const [name] = Object.keys(defs);
    expect(name).toMatch(/^s[0-9a-f]{10}$/);
    expect(defs[name]).toEqual(address);
    const ref = { $ref: `#/$defs/${name}` };
    expect(out.properties).toEqual({ order: { type: "object", properties: { from: ref, to: ref } }, returns: { type: "array", items: ref } });
    expect(len(out)).toBeLessThan(len(schema));
    expect(measureSchema(out).nodes).toBeLessThan(measureSchema(schema).nodes);
    // The input is not changed, and the same schema gives the same bytes.
    expect(schema).toEqual(shipping());
    expect(JSON.stringify(hoistSchema(shipping()))).toBe(JSON.stringify(out));
  });

  it("names an entry after the component it was inlined from, and never reuses a name (punctuation aside)", () => {
    const schema = shipping();
    const props = schema.properties as Record<string, Obj>;
    const origins = new WeakMap<object, string>();
    for (const n of [(props.order.properties as Obj).from, (props.order.properties as Obj).to, props.returns.items]) noteOrigin(origins, n, "#/components/schemas/postal-address");
    const taken = { ...schema, $defs: { postal_address: { type: "string" } } };
    const out = hoistSchema(taken, origins) as Obj;
    expect(Object.keys(out.$defs as Obj)).toEqual(["postal-address_2", "postal_address"]);
    expect(((out.properties as Record<string, Obj>).returns.items as Obj).$ref).toBe("#/$defs/postal-address_2");
  });

  it("points copies of an existing $defs entry at it instead of adding one", () => {
    const schema = { ...shipping(), $defs: { Address: structuredClone(address) } };
    const out = hoistSchema(schema) as Obj;
    expect(Object.keys(out.$defs as Obj)).toEqual(["Address"]);
    expect((out.properties as Record<string, Obj>).returns.items).toEqual({ $ref: "#/$defs/Address" });
  });

  it("keeps the root and each of its own properties in place, and leaves alone what would not get shorter", () => {
    const twice: Obj = { type: "object", properties: { a: structuredClone(address), b: structuredClone(address) } };
    expect(hoistSchema(twice)).toBe(twice);
    const small: Obj = { type: "object", properties: { a: { type: "object", properties: { x: { type: "integer" }, y: { type: "integer" } } } } };
    expect(hoistSchema(small)).toBe(small);
  });

  it("hoists a subschema only a little longer than its `$ref` when its name is short and it recurs often", () => {
    // `{"$ref":"#/$defs/Id"}` is 21 characters, `{"maxLength":12345678}` 22: each use saves one.
    const origins = new WeakMap<object, string>();
    const id = (): Obj => {
      const s: Obj = { maxLength: 12345678 };
      noteOrigin(origins, s, "#/components/schemas/Id");
      return s;
    };
    const schema: Obj = { type: "object", properties: { ids: { type: "array", prefixItems: Array.from({ length: 60 }, id) } } };
    const out = hoistSchema(schema, origins) as Obj;
    expect(out.$defs).toEqual({ Id: { maxLength: 12345678 } });
    expect(len(out)).toBeLessThan(len(schema));
  });

  it("leaves a schema with a base URI, an anchor or a reference outside its $defs as it is", () => {
    for (const extra of [{ $id: "https://example.com/s" }, { $defs: { a: { $anchor: "x" } } }, { not: { $ref: "#/properties/order" } }] as Obj[]) {
      const schema = { ...shipping(), ...extra };
      expect(hoistSchema(schema)).toBe(schema);
    }
  });

  it("names an imported component's entry after it, in inputs and outputs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-hoist-"));
    const file = join(dir, "api.json");
    const label = { type: "object", properties: { name: { type: "string", description: "The label's name." }, color: { type: "string", pattern: "^[0-9a-f]{6}$" } }, required: ["name"] };
    const pair = { type: "object", properties: { first: { $ref: "#/components/schemas/Label" }, second: { $ref: "#/components/schemas/Label" } } };
    const doc = {
      openapi: "3.1.0",
      info: { title: "labels", version: "1" },
      servers: [{ url: "https://api.example.com" }],
      paths: {
        "/pairs": {
          post: {
            operationId: "create_pair",
            requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties: { pair: pair, spare: { type: "array", items: { $ref: "#/components/schemas/Label" } } } } } } },
            responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { pair: pair, spare: { type: "array", items: { $ref: "#/components/schemas/Label" } } } } } } } },
          },
        },
      },
      components: { schemas: { Label: label } },
    };
    writeFileSync(file, JSON.stringify(doc));
    const hoisted = await importOpenApi({ file });
    const flat = await importOpenApi({ file, hoist: false });
    const tool = (r: typeof hoisted) => ((r.data as Obj).tools as Obj[])[0];
    const input = tool(hoisted).input as Obj;
    const output = (tool(hoisted).output as Obj).schema as Obj;
    expect(Object.keys(input.$defs as Obj)).toEqual(["Label"]);
    expect(Object.keys(output.$defs as Obj)).toEqual(["Label"]);
    expect((tool(flat).input as Obj).$defs).toBeUndefined();
    expect(len(input)).toBeLessThan(len(tool(flat).input));
    // The choice is recorded, so the printed re-import command gives the same spec.
    expect(flat.text).toMatch(/^# Recorded import options .*"hoist":false/m);
    expect(hoisted.text).not.toMatch(/"hoist"/);
  });

  it("accepts and refuses exactly what the original schema does, on random schemas with repeated parts", () => {
    const ajv = strictAjv();
    let compared = 0;
    fc.assert(
      fc.property(
        repeatedParts.chain((schema) => fc.tuple(fc.constant(schema), fc.array(argumentsFor(schema), { minLength: 20, maxLength: 20 }))),
        ([schema, values]) => {
          const out = hoistSchema(schema);
          if (out === schema) return;
          compared++;
          const before = ajv.compile(schema);
          const after = ajv.compile(out);
          for (const v of values) expect(verdict(after, v)).toEqual(verdict(before, v));
          expect(len(out)).toBeLessThan(len(schema));
          // An http tool's value loses the same optional nulls under either schema.
          expect(nullPlan(out)).toEqual(nullPlan(schema));
        },
      ),
      { numRuns: 150, seed: 21 },
    );
    expect(compared).toBeGreaterThan(100);
  }, 180_000);
});

// Subschemas ajv compiles strictly (each type-specific keyword beside its type), nested up to three levels.
const leaf = fc.oneof(
  fc.record({ type: fc.constant("string"), minLength: fc.nat(3), pattern: fc.constantFrom("^[a-z]*$", "^.{0,8}$"), description: fc.constantFrom("A name.", "Free text, as the caller gives it.") }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constantFrom("integer", "number"), minimum: fc.integer({ min: -5, max: 5 }), maximum: fc.integer({ min: 5, max: 50 }) }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string"), enum: fc.uniqueArray(fc.constantFrom("open", "closed", "all", "draft"), { minLength: 1, maxLength: 4 }) }),
  fc.record({ type: fc.constant(["string", "null"]), maxLength: fc.nat(40) }),
);
const part: fc.Arbitrary<Obj> = fc.letrec<{ node: Obj }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    leaf as fc.Arbitrary<Obj>,
    fc
      .tuple(fc.dictionary(fc.constantFrom("id", "name", "state", "owner", "tags"), tie("node"), { minKeys: 1, maxKeys: 4 }), fc.boolean(), fc.boolean())
      .map(([properties, closed, req]) => ({ type: "object", properties, ...(req ? { required: Object.keys(properties).slice(0, 1) } : {}), ...(closed ? { additionalProperties: false } : {}) })),
    fc.tuple(tie("node"), fc.nat(3)).map(([items, max]) => ({ type: "array", items, ...(max ? { maxItems: max } : {}) })),
    fc.array(tie("node"), { minLength: 2, maxLength: 3 }).map((branches) => ({ anyOf: branches })),
    fc.array(tie("node"), { minLength: 2, maxLength: 3 }).map((branches) => ({ oneOf: branches })),
  ),
})).node;
/** An input schema whose parts recur: one part in three places, another in two. */
const repeatedParts: fc.Arbitrary<Obj> = fc.tuple(part, part, fc.boolean()).map(([a, b, closed]) => ({
  type: "object",
  properties: {
    one: { type: "object", properties: { a: a, b: b } },
    many: { type: "array", items: { anyOf: [structuredClone(a), { type: "object", properties: { inner: structuredClone(b) }, additionalProperties: false }] } },
    not_this: { type: "object", properties: { x: { not: structuredClone(a) } } },
  },
  required: ["one"],
  ...(closed ? { additionalProperties: false } : {}),
}));
