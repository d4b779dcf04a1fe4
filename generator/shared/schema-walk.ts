// Kervan's schema limits and the one walk over a schema's subschemas that counts them: the check
// stage (check/schema-limits.ts) and the importer (import/limits.ts) both measure with it, so a
// schema the import keeps is one the check takes.
import type { Json } from "../../templates/runtime/types.js";
import { escapePointer } from "./pointer.js";

export const SCHEMA_LIMITS = { depth: 32, nodes: 2000, combinators: 64, bytes: 64 * 1024, patternLength: 512 };

/** A problem the check finds in one schema, at a pointer relative to the schema root. */
export interface SchemaProblem {
  code: string;
  severity?: "warning";
  message: string;
  /** Relative to the schema root. */
  pointer: string;
  atKey?: boolean;
}

/** Keywords whose value is one subschema (or, for `items` and `additionalItems` in older drafts, a list of them). */
export const ONE_SUBSCHEMA = ["additionalProperties", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems", "items"];
/** Keywords whose value is a list of subschemas. */
export const MANY_SUBSCHEMAS = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value maps names to subschemas. */
export const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

export interface SchemaVisitor {
  /** Every subschema position, whatever its value; the walk goes on only into objects. */
  node(node: Json, pointer: string, depth: number): void;
  /** Each key of an object subschema, before its value is walked. */
  key?(key: string, value: Json, pointer: string): void;
  /** Each name under a keyword of SUBSCHEMA_MAPS, before its subschema is walked. */
  mapKey?(keyword: string, name: string, pointer: string): void;
}

export function walkSchema(schema: Json, visitor: SchemaVisitor): void {
  const walk = (node: Json, pointer: string, depth: number): void => {
    visitor.node(node, pointer, depth);
    if (!node || typeof node !== "object" || Array.isArray(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const here = `${pointer}/${escapePointer(key)}`;
      visitor.key?.(key, value, here);
      if (MANY_SUBSCHEMAS.includes(key) && Array.isArray(value)) value.forEach((v, i) => walk(v, `${here}/${i}`, depth + 1));
      else if (ONE_SUBSCHEMA.includes(key)) {
        if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${here}/${i}`, depth + 1));
        else walk(value, here, depth + 1);
      } else if (SUBSCHEMA_MAPS.includes(key) && value && typeof value === "object" && !Array.isArray(value)) {
        for (const [name, v] of Object.entries(value)) {
          visitor.mapKey?.(key, name, `${here}/${escapePointer(name)}`);
          walk(v, `${here}/${escapePointer(name)}`, depth + 1);
        }
      }
    }
  };
  walk(schema, "", 1);
}

export interface SchemaSize {
  nodes: number;
  depth: number;
  combinators: number;
  bytes: number;
}

/** A schema's size as the limits count it: object subschemas, levels, anyOf/oneOf/allOf keywords, bytes of JSON. */
export function measureSchema(schema: Json): SchemaSize {
  const size = { nodes: 0, depth: 0, combinators: 0, bytes: Buffer.byteLength(JSON.stringify(schema)) };
  walkSchema(schema, {
    node(node, _pointer, depth) {
      if (!node || typeof node !== "object" || Array.isArray(node)) return;
      size.nodes += 1;
      size.depth = Math.max(size.depth, depth);
    },
    key(key, value) {
      if (MANY_SUBSCHEMAS.includes(key) && key !== "prefixItems" && Array.isArray(value)) size.combinators += 1;
    },
  });
  return size;
}

/** The check's sentences for a size limit broken (the importer gives the same reason). */
export const LIMIT_BROKEN = {
  bytes: (bytes: number) => ({ code: "KV507", message: `schema is ${bytes} bytes of JSON; the limit is ${SCHEMA_LIMITS.bytes}` }),
  depth: () => ({ code: "KV504", message: `schema nests deeper than ${SCHEMA_LIMITS.depth} levels` }),
  nodes: (nodes: number) => ({ code: "KV505", message: `schema has ${nodes} subschemas; the limit is ${SCHEMA_LIMITS.nodes}` }),
  combinators: (combinators: number) => ({ code: "KV506", message: `schema uses ${combinators} anyOf/oneOf/allOf keywords; the limit is ${SCHEMA_LIMITS.combinators}` }),
};
