// The 2xx JSON response -> `output`: its schema (describing, not policing: see schema.ts) with a
// select that keeps an object whole or wraps an array or scalar root, within Kervan's schema
// limits (deeper levels are cut to `{}` when the whole does not fit). Non-JSON answers are raw.
import type { Json } from "../../templates/runtime/types.js";
import { deref } from "./refs.js";
import { isDoc, type Doc } from "./read.js";
import { convertSchema } from "./schema.js";
import { fitsLimits, trimDepth } from "./limits.js";
import { hoistSchema } from "./hoist.js";
import { carryOrigin, type Origins } from "./origin.js";
import { newImportRun, type ImportRun } from "./run.js";
import { isObject } from "../shared/object.js";

type Obj = Record<string, Json>;
const isJson = (m: string) => /^application\/(?:[\w.+-]+\+)?json(?:;|$)/i.test(m);

function successResponse(doc: Doc, op: Doc): Doc | undefined {
  const responses: Doc = op.responses ?? {};
  const codes = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c)).sort();
  const code = codes[0] ?? (responses.default ? "default" : undefined);
  const res = code === undefined ? undefined : deref(doc, responses[code]);
  return isDoc(res) ? res : undefined;
}

const OUTPUT_BUDGET = 2048;

// Keywords that describe and do not check: what the listing drops from an output schema (a model
// reads the answer itself; the schema is there to check it). `deprecated` stays: it is a warning.
const DESCRIBING = new Set(["description", "title", "default", "examples", "$comment"]);

const DESCRIPTION = new Set(["description"]);

/** The schema without the keywords `drop` names; with `top`, the root's own stay. */
function without(drop: Set<string>, schema: Obj, origins: Origins, top = false): Obj {
  const strip = (n: Json): Json => (Array.isArray(n) ? n.map(strip) : isObject(n) ? stripObject(n, false) : n);
  const map = (v: Obj) => Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, strip(pv)]));
  const stripObject = (n: Obj, root: boolean): Obj => {
    const out: Obj = {};
    for (const [k, v] of Object.entries(n)) {
      if (drop.has(k) && !root) continue;
      if (k === "enum" || k === "const" || k === "default" || k === "examples") out[k] = v;
      else out[k] = (k === "properties" || k === "$defs" || k === "patternProperties") && isObject(v) ? map(v) : strip(v);
    }
    return carryOrigin(origins, n, out);
  };
  return stripObject(schema, top);
}

/** The output of an operation; `hoist` puts its repeated subschemas into `$defs` (hoist.ts). */
export function outputOf(doc: Doc, op: Doc, method: string, hoist = true, run: ImportRun = newImportRun()): Obj {
  if (method === "head") return { raw: true };
  const res = successResponse(doc, op);
  const content: Doc = res?.content ?? {};
  const types = Object.keys(content);
  const json = types.find(isJson);
  if (!json) return types.length || !res ? { raw: true } : { raw: true };
  const raw = content[json]?.schema;
  if (raw === undefined) return { select: "@" };
  const converted = convertSchema(doc, raw, "output", run);
  if (!isObject(converted)) return { select: "@" };
  let schema = converted;
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
  for (const depth of [6, 4, 3, 2]) if (!fits(schema)) schema = trimDepth(schema, depth, run.origins);
  if (!fits(schema)) schema = without(DESCRIPTION, schema, run.origins, true);
  if (!fits(schema)) return { select };
  // What fits is decided on the described schema, so the describing keywords' going changes no check.
  if (run.lean) schema = without(DESCRIBING, schema, run.origins);
  return { select, schema: hoist ? hoistSchema(schema, run.origins) : schema };
}
