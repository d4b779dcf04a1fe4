// The 2xx JSON response -> `output`: its schema (describing, not policing: see schema.ts) with a
// select that keeps an object whole or wraps an array or scalar root, within Kervan's schema
// limits (deeper levels are cut to `{}` when the whole does not fit). Non-JSON answers are raw.
import type { Json } from "../../templates/runtime/types.js";
import { deref } from "./refs.js";
import type { Doc } from "./read.js";
import { convertSchema } from "./schema.js";
import { fitsLimits, trimDepth } from "./limits.js";

type Obj = Record<string, Json>;
const isJson = (m: string) => /^application\/(?:[\w.+-]+\+)?json(?:;|$)/i.test(m);

function successResponse(doc: Doc, op: Doc): Doc | undefined {
  const responses: Doc = op.responses ?? {};
  const codes = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c)).sort();
  const code = codes[0] ?? (responses.default ? "default" : undefined);
  return code === undefined ? undefined : deref<Doc>(doc, responses[code]);
}

export function outputOf(doc: Doc, op: Doc, method: string): Obj {
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
  for (let depth = 12; !fitsLimits(schema) && depth >= 1; depth--) schema = trimDepth(schema, depth) as Obj;
  if (!fitsLimits(schema)) return { select };
  return { select, schema };
}
