// The 2xx JSON response -> `output`: its schema (describing, not policing: see schema.ts) with a
// select that keeps an object whole or wraps an array or scalar root, within Kervan's schema
// limits (deeper levels are cut to `{}` when the whole does not fit). Non-JSON answers are raw.
import type { Json } from "../../templates/runtime/types.js";
import { deref } from "./refs.js";
import type { Doc } from "./read.js";
import { convertSchema } from "./schema.js";
import { fitsLimits, trimDepth } from "./limits.js";
import { hoistSchema } from "./hoist.js";
import { carryOrigin } from "./origin.js";

type Obj = Record<string, Json>;
const isJson = (m: string) => /^application\/(?:[\w.+-]+\+)?json(?:;|$)/i.test(m);

function successResponse(doc: Doc, op: Doc): Doc | undefined {
  const responses: Doc = op.responses ?? {};
  const codes = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c)).sort();
  const code = codes[0] ?? (responses.default ? "default" : undefined);
  return code === undefined ? undefined : deref<Doc>(doc, responses[code]);
}

const OUTPUT_BUDGET = 2048;

function withoutDescriptions(schema: Obj): Obj {
  const strip = (n: Json, top: boolean): Json => {
    if (Array.isArray(n)) return n.map((x) => strip(x, false));
    if (!n || typeof n !== "object") return n;
    const out: Obj = {};
    for (const [k, v] of Object.entries(n)) if (!(k === "description" && !top && typeof v === "string")) out[k] = k === "properties" || k === "$defs" ? Object.fromEntries(Object.entries(v as Obj).map(([pk, pv]) => [pk, strip(pv, false)])) : strip(v, false);
    return carryOrigin(n, out);
  };
  return strip(schema, true) as Obj;
}

/** The output of an operation; `hoist` puts its repeated subschemas into `$defs` (hoist.ts). */
export function outputOf(doc: Doc, op: Doc, method: string, hoist = true): Obj {
  if (method === "head") return { raw: true };
  const res = successResponse(doc, op);
  const content: Doc = res?.content ?? {};
  const types = Object.keys(content);
  const json = types.find(isJson);
  if (!json) return types.length || !res ? { raw: true } : { raw: true };
  const raw = content[json]?.schema;
  if (raw === undefined) return { select: "@" };
  let schema = convertSchema(doc, raw, "output") as Obj;
  if (typeof schema !== "object" || schema === null) return { select: "@" };
  const objectRoot = schema.type === "object" && !schema.anyOf && !schema.oneOf;
  let select = "@";
  if (!objectRoot) {
    const isArray = schema.type === "array";
    const key = isArray ? "items" : "value";
    const { $defs, ...inner } = schema;
    schema = { type: "object", properties: { [key]: inner }, ...($defs ? { $defs } : {}) };
    select = `{${key}: @}`;
  }
  // An output schema describes the answer for the model: the upper levels carry most of that, and a
  // large one weighs down every listing (and the spec), so deeper levels are cut past a budget.
  // The budget is far below the byte limit, so the length decides first and the limits are counted only for what fits it.
  const fits = (s: Obj) => JSON.stringify(s).length <= OUTPUT_BUDGET && fitsLimits(s);
  for (const depth of [6, 4, 3, 2]) if (!fits(schema)) schema = trimDepth(schema, depth) as Obj;
  if (!fits(schema)) schema = withoutDescriptions(schema);
  if (!fits(schema)) return { select };
  return { select, schema: hoist ? hoistSchema(schema) : schema };
}
