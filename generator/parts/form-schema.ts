// What an elicitation form may carry for one field (MCP PrimitiveSchemaDefinition, the same in
// 2025-11-25 and 2026-07-28): a string (length bounds, a format among email, uri, date and date-time),
// a number or integer (bounds), a boolean, each with title, description and a default of its type; a
// single choice among strings (`enum`, with the legacy `enumNames` of the same length, or `oneOf` of
// `{const, title}`); a multiple choice (an array whose items are `{type: string, enum}` or `{anyOf:
// [{const, title}]}`, with minItems, maxItems and a default list of choices). The form's schema is the
// input property's cut to those keys; anything else is a reason the field cannot be asked.
import type { Json } from "../../templates/runtime/types.js";
import { isObject } from "../shared/object.js";

const SCALAR = new Set(["string", "number", "integer", "boolean"]);
const COMMON = ["type", "title", "description"] as const;
const BY_TYPE: Record<string, readonly string[]> = {
  string: ["minLength", "maxLength"],
  number: ["minimum", "maximum"],
  integer: ["minimum", "maximum"],
  boolean: [],
  array: ["minItems", "maxItems"],
};
const FORM_FORMATS = new Set(["email", "uri", "date", "date-time"]);

export type Form = { schema: Record<string, Json> } | { why: string };

const allStrings = (v: Json | undefined): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string");

type Titled = { const: string; title: string };
const isTitled = (o: Json): o is Titled => isObject(o) && typeof o.const === "string" && typeof o.title === "string";

/** `[{const, title}]` (strings both), each cut to those two keys, or undefined when it is not that. */
function titled(list: Json | undefined): Titled[] | undefined {
  if (!Array.isArray(list) || list.length === 0 || !list.every(isTitled)) return undefined;
  return list.map((o) => ({ const: o.const, title: o.title }));
}

function pick(prop: Record<string, Json>, keys: readonly string[], into: Record<string, Json>): void {
  for (const key of keys) if (prop[key] !== undefined) into[key] = prop[key];
}

/** A single choice among strings: enum (with enumNames) or oneOf of {const, title}; the values offered. */
function choices(prop: Record<string, Json>, schema: Record<string, Json>): string[] | { why: string } | undefined {
  if (prop.enum !== undefined) {
    if (!allStrings(prop.enum)) return { why: "a form offers choices only among strings" };
    schema.enum = prop.enum;
    if (prop.enumNames !== undefined) {
      if (!allStrings(prop.enumNames) || prop.enumNames.length !== prop.enum.length) return { why: "enumNames must name each enum value with a string, in order" };
      schema.enumNames = prop.enumNames;
    }
    return prop.enum;
  }
  if (prop.oneOf !== undefined) {
    const list = titled(prop.oneOf);
    if (!list) return { why: "a titled choice is oneOf a list of {const, title}, both strings" };
    schema.oneOf = list;
    return list.map((o) => o.const);
  }
  return undefined;
}

/** A multiple choice: items {type: string, enum} or {anyOf: [{const, title}]}; the values offered. */
function multiChoices(items: Json | undefined, schema: Record<string, Json>): string[] | { why: string } {
  const why = { why: "a multiple choice's items are {type: string, enum: [...]} or {anyOf: [{const, title}, ...]}" };
  if (!isObject(items)) return why;
  if (items.enum !== undefined) {
    if (items.type !== "string" || !allStrings(items.enum)) return why;
    schema.items = { type: "string", enum: items.enum };
    return items.enum;
  }
  const list = titled(items.anyOf);
  if (!list) return why;
  schema.items = { anyOf: list };
  return list.map((o) => o.const);
}

function defaultFits(type: string, value: Json, offered: string[] | undefined): boolean {
  if (type === "array") return Array.isArray(value) && value.every((v) => typeof v === "string" && (!offered || offered.includes(v)));
  if (offered) return typeof value === "string" && offered.includes(value);
  if (type === "integer") return Number.isInteger(value);
  return typeof value === (type === "integer" ? "number" : type);
}

/** The property's schema as an elicitation form carries it; a reason when it cannot be asked. */
export function formSchema(prop: Json | undefined): Form {
  if (!isObject(prop)) return { why: "its schema is not an object" };
  const type = prop.type;
  if (typeof type !== "string" || !(SCALAR.has(type) || type === "array")) return { why: `its type is ${type === undefined ? "not given" : JSON.stringify(type)}` };
  const schema: Record<string, Json> = {};
  pick(prop, [...COMMON, ...(BY_TYPE[type] ?? [])], schema);
  let offered: string[] | undefined;
  if (type === "array") {
    const got = multiChoices(prop.items, schema);
    if (!Array.isArray(got)) return got;
    offered = got;
  } else {
    if (type === "string" && typeof prop.format === "string" && FORM_FORMATS.has(prop.format)) schema.format = prop.format;
    const got = type === "string" ? choices(prop, schema) : prop.enum !== undefined || prop.oneOf !== undefined ? { why: "a form offers choices only among strings" } : undefined;
    if (got !== undefined && !Array.isArray(got)) return got;
    offered = got;
  }
  if (prop.default !== undefined) {
    if (!defaultFits(type, prop.default, offered)) return { why: `its default ${JSON.stringify(prop.default)} is not ${offered ? "among its choices" : `${type === "integer" ? "an" : "a"} ${type}`}` };
    schema.default = prop.default;
  }
  return { schema };
}
