// The exec input-schema contract: closed, flat, scalar (seed: exec-tools-input-schemas).
// Shared by the spec checker and the CLI form, so both refuse the same things with the same words.
import type { Json } from "../../../templates/runtime/types.js";

import { DRAFT_2020_12 } from "../../shared/schema.js";
import { isObject } from "../../shared/object.js";
import { escapePointer } from "../../shared/pointer.js";
const ROOT_KEYS = ["$schema", "$comment", "title", "description", "type", "properties", "required", "additionalProperties"];
const PROPERTY_KEYS = ["$comment", "title", "description", "type"];
export const SCALAR_TYPES = ["string", "number", "integer", "boolean"] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];
const isScalarType = (t: unknown): t is ScalarType => SCALAR_TYPES.some((s) => s === t);

export interface ContractProblem {
  code: string;
  message: string;
  /** Pointer relative to the input schema. */
  pointer: string;
  atKey?: boolean;
  /** The likely fix. */
  suggestion?: string;
  /** The pointer is relative to the tool (an argv entry), not to the input schema. */
  inTool?: boolean;
}

/** The fix for an optional field that conditions no argument group. */
const optionalFix = (names: string[]) =>
  `list ${names.map((n) => `'${n}'`).join(", ")} in 'required', or, to leave ${names.length === 1 ? "it" : "one"} out, put the arguments that use it in a group that only renders when it is given: {if: ${names[0]}, argv: ["--${names[0]}", "{${names[0]}}"]}`;


/** Checks the schema's own shape; returns the field types when it is usable. `guards` condition argument groups and may be optional. */
export function checkInputSchema(schema: unknown, problems: ContractProblem[], guards: ReadonlySet<string> = new Set()): Record<string, ScalarType> | undefined {
  // Not an object: the spec schema has refused it already (KV203), also when it came from @file.
  if (!isObject(schema)) return undefined;
  for (const key of Object.keys(schema)) {
    if (!ROOT_KEYS.includes(key)) {
      problems.push({
        code: "KV311",
        message: `keyword '${key}' is not supported at the root of an exec input schema (allowed: ${ROOT_KEYS.join(", ")})`,
        pointer: `/${escapePointer(key)}`,
        atKey: true,
      });
    }
  }
  for (const key of ["$comment", "title", "description"]) {
    if (key in schema && typeof schema[key] !== "string") problems.push({ code: "KV312", message: `'${key}' must be a string`, pointer: `/${key}` });
  }
  if ("$schema" in schema && schema.$schema !== DRAFT_2020_12) {
    problems.push({ code: "KV313", message: `'$schema' must be ${DRAFT_2020_12} (exec input schemas are JSON Schema 2020-12)`, pointer: "/$schema" });
  }
  if (schema.type !== "object") problems.push({ code: "KV314", message: "the input schema's 'type' must be \"object\"", pointer: "type" in schema ? "/type" : "" });
  if (schema.additionalProperties !== false) {
    problems.push({ code: "KV315", message: "the input schema must set 'additionalProperties: false' (exec input is closed)", pointer: "additionalProperties" in schema ? "/additionalProperties" : "" });
  }
  if (!isObject(schema.properties)) {
    problems.push({ code: "KV316", message: "the input schema needs a 'properties' object", pointer: "properties" in schema ? "/properties" : "" });
    return undefined;
  }
  const fields: Record<string, ScalarType> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    const at = `/properties/${escapePointer(name)}`;
    if (!isObject(prop)) {
      problems.push({ code: "KV317", message: `property '${name}' must be an object with a scalar 'type'`, pointer: at });
      continue;
    }
    for (const key of Object.keys(prop)) {
      if (!PROPERTY_KEYS.includes(key)) {
        problems.push({
          code: "KV318",
          message: `keyword '${key}' is not supported on exec input property '${name}' (allowed: ${PROPERTY_KEYS.join(", ")}); exec inputs are flat scalars`,
          pointer: `${at}/${key}`,
          atKey: true,
        });
      }
    }
    for (const key of ["$comment", "title", "description"]) {
      if (key in prop && typeof prop[key] !== "string") problems.push({ code: "KV312", message: `'${key}' of property '${name}' must be a string`, pointer: `${at}/${key}` });
    }
    if (!isScalarType(prop.type)) {
      problems.push({ code: "KV319", message: `property '${name}' must have 'type' string, number, integer or boolean`, pointer: "type" in prop ? `${at}/type` : at });
      continue;
    }
    fields[name] = prop.type;
  }
  // A field that conditions an argument group, or that is asked from the user, may be optional (left
  // out of `required`); no other.
  const names = Object.keys(schema.properties).filter((n) => !guards.has(n));
  if (!("required" in schema)) {
    if (names.length) {
      problems.push({
        code: "KV320",
        message: `the input schema has no 'required', so ${names.map((n) => `'${n}'`).join(", ")} would be optional, but an exec argument can only be left out inside an {if:} argument group`,
        pointer: "",
        suggestion: optionalFix(names),
      });
    }
  } else if (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== "string")) {
    problems.push({ code: "KV320", message: "'required' must be an array of property names", pointer: "/required" });
  } else {
    const seen = new Set<string>();
    schema.required.forEach((r, i) => {
      const name = String(r);
      if (seen.has(name)) problems.push({ code: "KV321", message: `'${name}' is listed twice in 'required'`, pointer: `/required/${i}` });
      else if (!(isObject(schema.properties) && Object.hasOwn(schema.properties, name))) problems.push({ code: "KV322", message: `'required' names '${name}', which is not a property`, pointer: `/required/${i}` });
      seen.add(name);
    });
    for (const name of names) {
      if (!seen.has(name)) {
        problems.push({
          code: "KV320",
          message: `property '${name}' is optional (not in 'required'), but no {if: ${name}} argument group is conditioned on it: an exec argument can only be left out inside such a group`,
          pointer: "/required",
          suggestion: optionalFix([name]),
        });
      }
    }
  }
  return fields;
}

/**
 * The placeholder contract between argv and the schema's properties. `argvPointer` gives the place
 * (relative to the tool) of the first argument naming a placeholder, where KV323 points.
 */
export function checkPlaceholders(placeholders: string[], schema: unknown, problems: ContractProblem[], guards: readonly string[] = [], argvPointer?: (name: string) => string | undefined): void {
  const declared = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const fields = Object.fromEntries(Object.keys(declared).map((k) => [k, true]));
  for (const name of placeholders) {
    if (name in fields) continue;
    const at = argvPointer?.(name);
    problems.push({
      code: "KV323",
      message: `placeholder {${name}} has no property in the input schema`,
      pointer: at ?? "/properties",
      ...(at ? { inTool: true } : {}),
      suggestion: `add it under input.properties (e.g. ${name}: { type: string, description: ... }) and to 'required', or write {{${name}}} for the literal text {${name}}`,
    });
  }
  for (const name of Object.keys(fields)) {
    if (!placeholders.includes(name) && !guards.includes(name)) {
      problems.push({ code: "KV324", message: `property '${name}' is not used by any argument template`, pointer: `/properties/${name}`, atKey: true });
    }
  }
}

/** The schema used when none is given: each placeholder a required string. */
export function inferInputSchema(placeholders: string[]): Record<string, Json> {
  const properties: Record<string, Json> = {};
  for (const name of placeholders) properties[name] = { type: "string" };
  return { type: "object", properties, required: [...placeholders], additionalProperties: false };
}
