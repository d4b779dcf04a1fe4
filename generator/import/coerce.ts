// Inputs that fill a path segment, query value, header, cookie or form field must be scalars (query
// and form may take arrays of scalars). Schemas the document leaves open become strings (that is
// what goes on the wire); arrays outside the query become comma-separated text; objects there are refused.
import type { Json } from "../../templates/runtime/types.js";
import { OperationSkip } from "./refs.js";
import type { Field } from "./inputs.js";
import { isObject } from "../shared/object.js";

type Obj = Record<string, Json>;
const SCALARS = ["string", "number", "integer", "boolean"];
// RFC 6265 cookie values hold no whitespace, quote, comma, semicolon or backslash: a value cannot add a cookie.
const NOT_COOKIE_OCTET = '[\\s",;\\\\]';
const KEEP = ["title", "description", "deprecated", "default", "examples"];

function scalar(schema: Obj): Obj | undefined {
  let type: Json | undefined = schema.type;
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== "null");
    type = real.length === 1 ? real[0] : undefined;
    if (type === undefined) return undefined;
    schema = { ...schema, type };
  }
  if (typeof type === "string" && SCALARS.includes(type)) {
    if (Array.isArray(schema.enum)) schema = { ...schema, enum: schema.enum.filter((v) => v === null || typeof v !== "object").filter((v) => v !== null) };
    if (Array.isArray(schema.enum) && !schema.enum.length) delete schema.enum;
    return schema;
  }
  if (type === undefined && Array.isArray(schema.enum) && schema.enum.length && schema.enum.every((v) => typeof v === "string")) {
    return { ...schema, type: "string" };
  }
  return undefined;
}

function asString(schema: Obj, extra?: string): Obj {
  const out: Obj = { type: "string" };
  for (const k of KEEP) if (schema[k] !== undefined && k !== "default" && k !== "examples") out[k] = schema[k];
  if (extra) out.description = `${out.description ? `${out.description} ` : ""}${extra}`;
  return out;
}

export function scalarFor(f: Field, schema: Obj, notes: string[], _defs: Obj | undefined): Obj {
  const where = f.place === "body" ? "form field" : `${f.place} parameter`;
  const spreadable = f.place === "query";
  const isArray = schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array") && !schema.type.includes("object"));
  if (isArray) {
    const items = isObject(schema.items) ? schema.items : {};
    if (!spreadable) {
      notes.push(`${where} '${f.wire}' is an array: the input takes it as comma-separated text`);
      return asString(schema, "Comma-separated list.");
    }
    const item = scalar(items) ?? (items.type === undefined && !items.properties && !items.$ref ? asString(items) : undefined);
    if (!item) throw new OperationSkip(`${where} '${f.wire}' is an array of objects, which a query or form cannot carry`);
    return { ...schema, type: "array", items: item };
  }
  const s = scalar(schema);
  if (s) {
    if (f.place === "cookie" && s.type === "string" && !s.pattern && !s.enum) return { ...s, not: { pattern: NOT_COOKIE_OCTET } };
    return s;
  }
  const objectish = schema.type === "object" || schema.properties !== undefined || (Array.isArray(schema.type) && schema.type.includes("object"));
  if (objectish) throw new OperationSkip(`${where} '${f.wire}' is an object (style ${f.place === "query" ? "form/deepObject" : "simple"}), which kervan cannot spread into ${f.place === "query" ? "query parameters" : "one value"}`);
  notes.push(`${where} '${f.wire}' has no scalar type in the document: the input is a string`);
  return asString(schema, undefined);
}
