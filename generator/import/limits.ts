// Kervan's schema limits, measured with the check stage's own walk (shared/schema-walk.ts), and a
// cut that keeps a schema's upper levels when the whole would not fit (used for output schemas only).
import type { Json } from "../../templates/runtime/types.js";
import { carryOrigin, type Origins } from "./origin.js";
import { isObject } from "../shared/object.js";
import { LIMIT_BROKEN, MANY_SUBSCHEMAS, measureSchema, ONE_SUBSCHEMA, SCHEMA_LIMITS, SUBSCHEMA_MAPS } from "../shared/schema-walk.js";

export function fitsLimits(schema: Json): boolean {
  return limitBroken(schema) === undefined;
}

/** Which size limit a schema breaks, in the check's words and with its code. */
export function limitBroken(schema: Json): string | undefined {
  const m = measureSchema(schema);
  const broken =
    m.bytes > SCHEMA_LIMITS.bytes ? LIMIT_BROKEN.bytes(m.bytes)
    : m.depth > SCHEMA_LIMITS.depth ? LIMIT_BROKEN.depth()
    : m.nodes > SCHEMA_LIMITS.nodes ? LIMIT_BROKEN.nodes(m.nodes)
    : m.combinators > SCHEMA_LIMITS.combinators ? LIMIT_BROKEN.combinators(m.combinators)
    : undefined;
  return broken && `${broken.message} (${broken.code})`;
}

const DEFINITIONS = new Set(["$defs", "definitions"]);

/** Below `max` levels every subschema becomes `{}` (anything), keeping its description; references and definitions go. */
export function trimDepth(schema: Record<string, Json>, max: number, origins?: Origins): Record<string, Json> {
  const cut = (n: Json, d: number): Json => (isObject(n) ? cutObject(n, d) : n);
  const cutObject = (n: Record<string, Json>, d: number): Record<string, Json> => {
    if (d > max || typeof n.$ref === "string") return typeof n.description === "string" ? { description: n.description } : {};
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(n)) {
      if (DEFINITIONS.has(k)) continue;
      if (MANY_SUBSCHEMAS.includes(k) && Array.isArray(v)) out[k] = v.map((x) => cut(x, d + 1));
      else if (ONE_SUBSCHEMA.includes(k)) out[k] = Array.isArray(v) ? v.map((x) => cut(x, d + 1)) : cut(v, d + 1);
      else if (SUBSCHEMA_MAPS.includes(k) && v && typeof v === "object" && !Array.isArray(v)) out[k] = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, cut(pv, d + 1)]));
      else out[k] = v;
    }
    return carryOrigin(origins, n, out);
  };
  return cutObject(schema, 1);
}
