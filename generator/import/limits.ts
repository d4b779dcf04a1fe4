// Kervan's schema limits, measured the way the check stage counts them, and a cut that keeps a
// schema's upper levels when the whole would not fit (used for output schemas only).
import type { Json } from "../../templates/runtime/types.js";
import { SCHEMA_LIMITS } from "../check/schema-limits.js";

const ONE = new Set(["additionalProperties", "contains", "not", "if", "then", "else", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "items"]);
const MANY = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const MAP = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);

export function measure(schema: Json): { nodes: number; depth: number; combinators: number; bytes: number } {
  let nodes = 0;
  let depth = 0;
  let combinators = 0;
  const walk = (n: Json, d: number): void => {
    if (!n || typeof n !== "object" || Array.isArray(n)) return;
    nodes++;
    depth = Math.max(depth, d);
    for (const k in n) {
      const v = n[k];
      if (MANY.has(k) && Array.isArray(v)) {
        if (k !== "prefixItems") combinators++;
        for (const x of v) walk(x, d + 1);
      } else if (ONE.has(k)) walk(v, d + 1);
      else if (MAP.has(k) && v && typeof v === "object" && !Array.isArray(v)) for (const pk in v) walk(v[pk], d + 1);
    }
  };
  walk(schema, 1);
  return { nodes, depth, combinators, bytes: Buffer.byteLength(JSON.stringify(schema)) };
}

export function fitsLimits(schema: Json): boolean {
  const m = measure(schema);
  return m.nodes <= SCHEMA_LIMITS.nodes && m.depth <= SCHEMA_LIMITS.depth && m.combinators <= SCHEMA_LIMITS.combinators && m.bytes <= SCHEMA_LIMITS.bytes;
}

/** Which limit a schema breaks, as a sentence. */
export function limitBroken(schema: Json): string | undefined {
  const m = measure(schema);
  if (m.nodes > SCHEMA_LIMITS.nodes) return `${m.nodes} subschemas (limit ${SCHEMA_LIMITS.nodes})`;
  if (m.depth > SCHEMA_LIMITS.depth) return `${m.depth} levels deep (limit ${SCHEMA_LIMITS.depth})`;
  if (m.combinators > SCHEMA_LIMITS.combinators) return `${m.combinators} anyOf/oneOf/allOf keywords (limit ${SCHEMA_LIMITS.combinators})`;
  if (m.bytes > SCHEMA_LIMITS.bytes) return `${m.bytes} bytes of JSON (limit ${SCHEMA_LIMITS.bytes})`;
  return undefined;
}

/** Below `max` levels every subschema becomes `{}` (anything), keeping its description; references and $defs go. */
export function trimDepth(schema: Json, max: number): Json {
  const cut = (n: Json, d: number): Json => {
    if (!n || typeof n !== "object" || Array.isArray(n)) return n;
    if (d > max || typeof n.$ref === "string") return typeof n.description === "string" ? { description: n.description } : {};
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(n)) {
      if (k === "$defs") continue;
      if (MANY.has(k) && Array.isArray(v)) out[k] = v.map((x) => cut(x, d + 1));
      else if (ONE.has(k)) out[k] = cut(v, d + 1);
      else if (MAP.has(k) && v && typeof v === "object" && !Array.isArray(v)) out[k] = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, cut(pv, d + 1)]));
      else out[k] = v;
    }
    return out;
  };
  return cut(schema, 1);
}
