// The catalog tools' own input validators: their schemas are fixed and flat (strings, integers, one
// array of strings, one object), so a small checker of exactly that subset reports ajv-shaped errors.
import type { ValidationError, Validator } from "../types.js";

export interface FlatProperty {
  type: "string" | "integer" | "object" | "array";
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: { type: "string"; minLength?: number; maxLength?: number };
  description?: string;
}

export interface FlatSchema {
  type: "object";
  properties: Record<string, FlatProperty>;
  required?: string[];
  additionalProperties: false;
}

const own = Object.prototype.hasOwnProperty;

function typeOk(type: FlatProperty["type"] | "string", v: unknown): boolean {
  if (type === "string") return typeof v === "string";
  if (type === "integer") return typeof v === "number" && Number.isInteger(v);
  if (type === "array") return Array.isArray(v);
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function checkValue(p: FlatProperty | NonNullable<FlatProperty["items"]>, v: unknown, path: string, errors: ValidationError[]): void {
  const fail = (keyword: string, params: Record<string, unknown>, message: string) => errors.push({ instancePath: path, schemaPath: `#${path}`, keyword, params, message });
  if (!typeOk(p.type, v)) return void fail("type", { type: p.type }, `must be ${p.type}`);
  if (typeof v === "string") {
    const len = [...v].length;
    if (p.minLength !== undefined && len < p.minLength) fail("minLength", { limit: p.minLength }, `must NOT have fewer than ${p.minLength} characters`);
    if (p.maxLength !== undefined && len > p.maxLength) fail("maxLength", { limit: p.maxLength }, `must NOT have more than ${p.maxLength} characters`);
  }
  if (typeof v === "number" && "minimum" in p) {
    if (p.minimum !== undefined && v < p.minimum) fail("minimum", { comparison: ">=", limit: p.minimum }, `must be >= ${p.minimum}`);
    if (p.maximum !== undefined && v > p.maximum) fail("maximum", { comparison: "<=", limit: p.maximum }, `must be <= ${p.maximum}`);
  }
  if (Array.isArray(v) && "items" in p) {
    if (p.minItems !== undefined && v.length < p.minItems) fail("minItems", { limit: p.minItems }, `must NOT have fewer than ${p.minItems} items`);
    if (p.maxItems !== undefined && v.length > p.maxItems) fail("maxItems", { limit: p.maxItems }, `must NOT have more than ${p.maxItems} items`);
    if (p.items) v.forEach((item, i) => checkValue(p.items!, item, `${path}/${i}`, errors));
  }
}

/** A Validator (the shape ajv's standalone code has) for one flat schema. */
export function flatValidator(schema: FlatSchema): Validator {
  const validate = ((data: unknown): boolean => {
    const errors: ValidationError[] = [];
    if (!typeOk("object", data)) {
      errors.push({ instancePath: "", schemaPath: "#/type", keyword: "type", params: { type: "object" }, message: "must be object" });
    } else {
      const obj = data as Record<string, unknown>;
      for (const key of schema.required ?? []) {
        if (!own.call(obj, key)) errors.push({ instancePath: "", schemaPath: "#/required", keyword: "required", params: { missingProperty: key }, message: `must have required property '${key}'` });
      }
      for (const key of Object.keys(obj)) {
        const p = own.call(schema.properties, key) ? schema.properties[key] : undefined;
        if (!p) errors.push({ instancePath: "", schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: key }, message: "must NOT have additional properties" });
        else checkValue(p, obj[key], `/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, errors);
      }
    }
    validate.errors = errors.length ? errors : null;
    return errors.length === 0;
  }) as Validator;
  return validate;
}
