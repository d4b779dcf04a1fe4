// An operation's parameters and request body as one flat list of inputs, each with its place.
// Two inputs of one name from different places are both kept, renamed by place (`query_id`,
// `body_id`); a JSON object body is flattened unless a property collides, else kept whole as `body`.
import type { Json } from "../../templates/runtime/types.js";
import { deref, OperationSkip } from "./refs.js";
import { isDoc, type Doc } from "./read.js";
import { inputName } from "./names.js";
import { cleanText } from "./describe.js";
import { newImportRun, type ImportRun } from "./run.js";

export type Place = "path" | "query" | "header" | "cookie" | "body";
const PARAMETER_PLACES = ["path", "query", "header", "cookie"] as const;
const isParameterPlace = (s: unknown): s is (typeof PARAMETER_PLACES)[number] => PARAMETER_PLACES.some((p) => p === s);

export interface Field {
  /** The input's name in the tool. */
  name: string;
  /** The name on the wire (parameter, header, cookie or body property name). */
  wire: string;
  place: Place;
  /** The OpenAPI schema, not yet converted. */
  schema: unknown;
  required: boolean;
  description: string;
  /** Query arrays: how the array is spread. */
  style?: "repeat" | "comma" | "pipe" | "space";
  /** Why the name differs from the wire name, for the spec comment. */
  renamed?: string;
}

export interface Body {
  /** JSON: flattened fields (`flat`) or the whole value in one input; form: one field per property. */
  kind: "json" | "form";
  flat: boolean;
  /** The media type chosen. */
  mediaType: string;
}

// Per OpenAPI, header parameters with these names are ignored: the document describes them elsewhere.
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);
const RESERVED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "expect"]);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function styleOf(p: Doc): Field["style"] {
  if (p.style === "spaceDelimited") return "space";
  if (p.style === "pipeDelimited") return "pipe";
  return p.explode === false ? "comma" : "repeat";
}

export function parametersOf(doc: Doc, pathItem: Doc, op: Doc, notes: string[], run: ImportRun = newImportRun()): Field[] {
  const byKey = new Map<string, Doc>();
  for (const raw of [...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
    const p = deref(doc, raw, run.found);
    if (!isDoc(p) || typeof p.name !== "string" || typeof p.in !== "string") throw new OperationSkip("a parameter has no name or no 'in'");
    byKey.set(`${p.in}\0${p.name}`, p);
  }
  const fields: Field[] = [];
  for (const p of byKey.values()) {
    const place = p.in;
    if (!isParameterPlace(place)) throw new OperationSkip(`parameter '${p.name}' is in '${p.in}', which is not a parameter place`);
    if (place === "header" && IGNORED_HEADERS.has(p.name.toLowerCase())) {
      notes.push(`header parameter '${p.name}' is ignored, as OpenAPI says (its value comes from the media types or the security scheme)`);
      continue;
    }
    if (place === "header" && (RESERVED_HEADERS.has(p.name.toLowerCase()) || !TOKEN.test(p.name))) throw new OperationSkip(`header parameter '${p.name}' cannot be set by a tool (framing header or invalid name)`);
    let schema: unknown = p.schema;
    let description = cleanText(p.description, 500, run);
    if (schema === undefined && p.content && typeof p.content === "object") {
      schema = { type: "string" };
      const media = Object.keys(p.content)[0];
      description = `${description ? `${description} ` : ""}(${media} text)`.trim();
    }
    fields.push({ name: p.name, wire: p.name, place, schema: schema ?? { type: "string" }, required: place === "path" || p.required === true, description, ...(place === "query" ? { style: styleOf(p) } : {}) });
  }
  return fields;
}

const readOnly = (schema: unknown) => isDoc(schema) && schema.readOnly === true;
const isJson = (m: string) => /^application\/(?:[\w.+-]+\+)?json(?:;|$)/i.test(m) || m === "*/*";
const isForm = (m: string) => /^application\/x-www-form-urlencoded(?:;|$)/i.test(m);

/** The request body as fields; `undefined` when the operation has none. */
export function bodyOf(doc: Doc, op: Doc, method: string, keepWhole = false, run: ImportRun = newImportRun()): { body: Body; fields: Field[] } | undefined {
  if (op.requestBody === undefined) return undefined;
  const found = deref(doc, op.requestBody, run.found);
  const rb: Doc = isDoc(found) ? found : {};
  const content: Doc = rb.content ?? {};
  const types = Object.keys(content);
  if (!types.length) return undefined;
  if (method === "get" || method === "head") throw new OperationSkip(`a ${method.toUpperCase()} request with a body cannot be sent`);
  const json = types.find(isJson);
  const form = types.find(isForm);
  const chosen = json ?? form;
  if (!chosen) throw new OperationSkip(`the request body is ${types.join(", ")}; kervan sends JSON and form bodies`);
  const schema = content[chosen]?.schema ?? {};
  const required = rb.required === true;
  const description = cleanText(rb.description, 500, run);
  const whole = (): { body: Body; fields: Field[] } => ({
    body: { kind: "json", flat: false, mediaType: chosen },
    fields: [{ name: "body", wire: "body", place: "body", schema, required, description: description || "The request body." }],
  });
  const target = deref(doc, schema, run.found);
  const resolved: Doc = isDoc(target) ? target : {};
  const props: Record<string, unknown> | undefined = resolved.properties && typeof resolved.properties === "object" ? resolved.properties : undefined;
  const open = resolved.additionalProperties !== undefined && resolved.additionalProperties !== false;
  const union = ["oneOf", "anyOf", "allOf"].some((k) => Array.isArray(resolved[k]));
  // readOnly properties are the server's to set: they are no inputs (schema.ts leaves them out too).
  const names = props ? Object.keys(props).filter((n) => !readOnly(deref(doc, props[n], run.found))) : [];
  const flattenable = !!props && !open && !union && names.length > 0 && names.every((n) => inputName(n) === n);
  if (chosen === form) {
    if (!props || union) throw new OperationSkip("the form body is not an object with named fields");
    const req = new Set<string>(Array.isArray(resolved.required) ? resolved.required : []);
    return {
      body: { kind: "form", flat: true, mediaType: chosen },
      fields: names.map((n) => ({ name: n, wire: n, place: "body" as const, schema: props[n], required: req.has(n), description: "" })),
    };
  }
  if (!flattenable || keepWhole) return whole();
  const req = new Set<string>(Array.isArray(resolved.required) ? resolved.required : []);
  return {
    body: { kind: "json", flat: true, mediaType: chosen },
    // A property required inside an optional body is required only when the body is sent: optional here.
    fields: names.map((n) => ({ name: n, wire: n, place: "body" as const, schema: props[n], required: required && req.has(n), description: "" })),
  };
}

/**
 * Names every field: the wire name when a template can name it, else a snake_case form; names
 * shared by fields of different places are prefixed with the place. Returns the fields renamed.
 */
export function nameFields(fields: Field[]): Field[] {
  const out = fields.map((f) => ({ ...f, name: inputName(f.wire) }));
  for (const f of out) if (f.name !== f.wire) f.renamed = `'${f.wire}' is not a portable input name`;
  for (let round = 0; round < 3; round++) {
    const groups = new Map<string, Field[]>();
    for (const f of out) groups.set(f.name, [...(groups.get(f.name) ?? []), f]);
    let changed = false;
    for (const [name, group] of groups) {
      if (group.length < 2) continue;
      changed = true;
      group.forEach((f, i) => {
        const places = new Set(group.map((g) => g.place));
        f.name = places.size === group.length ? `${f.place}_${name}` : `${f.place}_${name}_${i + 1}`;
        f.renamed = `${f.place} ${JSON.stringify(f.wire)} shares its name with another input (${[...places].join(", ")})`;
      });
    }
    if (!changed) break;
  }
  return out;
}
