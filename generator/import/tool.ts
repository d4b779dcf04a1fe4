// One OpenAPI operation -> one http tool of a Kervan spec (plain data; yaml.ts writes it).
import type { Json } from "../../templates/runtime/types.js";
import { OperationSkip } from "./refs.js";
import type { Doc } from "./read.js";
import { convertProperties } from "./schema.js";
import { bodyOf, nameFields, parametersOf, type Field } from "./inputs.js";
import { authFor, envPrefix } from "./security.js";
import { baseUrlOf, encodeSegment } from "./server-url.js";
import { newImportRun, type ImportRun } from "./run.js";
import { toolDescription, toolTitle } from "./describe.js";
import { outputOf } from "./output.js";
import { scalarFor } from "./coerce.js";
import { hoistSchema } from "./hoist.js";
import { isObject } from "../shared/object.js";

type Obj = Record<string, Json>;

export interface Operation {
  method: string;
  path: string;
  op: Doc;
  pathItem: Doc;
  /** The operation's name before snake_case: operationId, else method and path. */
  raw: string;
  tags: string[];
  operationId?: string;
}

export interface ImportedTool {
  name: string;
  /** The spec entry. */
  tool: Obj;
  /** Per input: place and wire name, and why it was renamed; written as YAML comments. */
  places: Record<string, string>;
  /** Comment lines above the tool (renames, ignored headers, auth notes). */
  notes: string[];
  secrets: Array<{ env: string; holds: string; scheme: string }>;
  baseNote?: string;
}

const ANNOTATIONS: Record<string, Obj> = {
  get: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  head: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  put: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  post: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  patch: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
};

const SEGMENT_LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/;

/** The path as a template: `{id}` -> `{{input.<name>}}`, literal text encoded, a `?query` tail split off. */
function pathTemplate(path: string, byWire: Map<string, Field>, fixedQuery: Obj): string {
  const [p, q] = path.split("?", 2);
  if (q) for (const [k, v] of new URLSearchParams(q)) fixedQuery[k] = v;
  const segments = p.split("/").filter((s, i, all) => s !== "" || i === all.length - 1);
  const out = segments.map((seg) => {
    const parts = seg.split(/(\{[^{}]+\})/);
    const text = parts
      .map((part) => {
        const m = /^\{([^{}]+)\}$/.exec(part);
        if (m) {
          const f = byWire.get(m[1]);
          if (!f) throw new OperationSkip(`path parameter {${m[1]}} has no declaration`);
          return `{{input.${f.name}}}`;
        }
        return SEGMENT_LITERAL.test(part) && !part.includes("{") ? part : encodeSegment(part);
      })
      .join("");
    if (text === "." || text === "..") throw new OperationSkip(`the path ${path} has a '.' or '..' segment`);
    return text;
  });
  return `/${out.join("/")}`.replace(/^\/\//, "/");
}

export interface BuildOptions {
  /** Repeated subschemas go into `$defs` (hoist.ts); on unless turned off. */
  hoist?: boolean;
  /** The import this operation is part of (run.ts), shared by its operations; a fresh one when not given. */
  run?: ImportRun;
}

export function buildTool(doc: Doc, o: Operation, name: string, server: string, options: BuildOptions = {}): ImportedTool {
  const hoist = options.hoist !== false;
  const run = options.run ?? newImportRun();
  const notes: string[] = [];
  const auth = authFor(doc, o.op, server);
  if (auth.unsupported.length) throw new OperationSkip(auth.unsupported[0]);
  // A parameter that carries a credential the security scheme already sends is no model input.
  const credential = (place: string, key: string) => auth.uses.some((u) => u.place === place && u.key.toLowerCase() === key.toLowerCase());
  const params = parametersOf(doc, o.pathItem, o.op, notes, run).filter((p) => {
    if (!credential(p.place, p.wire)) return true;
    notes.push(`${p.place} parameter '${p.wire}' is the credential of the security scheme: sent from the secret, not an input`);
    return false;
  });
  // Path placeholders the document forgot to declare still need an input: a required string.
  for (const m of o.path.matchAll(/\{([^{}]+)\}/g)) {
    if (!params.some((p) => p.place === "path" && p.wire === m[1])) {
      params.push({ name: m[1], wire: m[1], place: "path", schema: { type: "string" }, required: true, description: "" });
      notes.push(`path parameter {${m[1]}} is not declared by the document: a required string`);
    }
  }
  let body = bodyOf(doc, o.op, o.method, false, run);
  if (body?.body.flat && body.body.kind === "json") {
    const taken = new Set(nameFields(params).map((f) => f.name));
    if (body.fields.some((f) => taken.has(f.name))) {
      const whole = bodyOf(doc, o.op, o.method, true, run);
      notes.push("the JSON body is kept whole under `body`: a property shares its name with a parameter");
      body = whole;
    }
  }
  const fields = nameFields([...params, ...(body?.fields ?? [])]);
  const converted = convertProperties(doc, fields, "input", run);
  const properties: Obj = {};
  const places: Record<string, string> = {};
  const required: string[] = [];
  const query: Obj = {};
  const headers: Obj = {};
  const cookies: string[] = [];
  const form: Obj = {};
  const json: Obj = {};
  let wholeBody: string | undefined;
  fields.forEach((f, i) => {
    const prop = converted.props[i];
    let schema: Obj = isObject(prop) ? prop : {};
    if (f.place !== "body" || body?.body.kind === "form") schema = scalarFor(f, schema, notes, converted.defs);
    if (f.description && !schema.description) schema = { description: f.description, ...schema };
    properties[f.name] = schema;
    places[f.name] = `${f.place}${f.name !== f.wire ? ` ${JSON.stringify(f.wire)}` : ""}${f.renamed ? ` (renamed: ${f.renamed})` : ""}`;
    if (f.required) required.push(f.name);
    const t = `{{input.${f.name}}}`;
    const isArray = schema.type === "array";
    if (f.place === "query") query[f.wire] = isArray ? { input: f.name, style: f.style ?? "repeat" } : t;
    else if (f.place === "header") headers[f.wire] = t;
    else if (f.place === "cookie") cookies.push(`${f.wire}=${t}`);
    else if (f.place === "body" && body?.body.kind === "form") form[f.wire] = t;
    else if (f.place === "body" && body?.body.flat) json[f.wire] = t;
    else if (f.place === "body") wholeBody = t;
  });
  const optionalCookies = fields.filter((f) => f.place === "cookie" && !f.required);
  if (optionalCookies.length > 1) throw new OperationSkip(`${optionalCookies.length} optional cookie parameters: one Cookie header is left out whole when any of its inputs is absent`);

  const secrets: Obj = {};
  for (const u of auth.uses) {
    secrets[u.name] = auth.optional ? { env: u.env, required: false } : { env: u.env };
    if (u.place === "header") headers[u.key] = u.value;
    else if (u.place === "query") query[u.key] = u.value;
    else cookies.push(`${u.key}=${u.value}`);
  }
  if (cookies.length) headers.Cookie = cookies.join("; ");

  const { baseUrl, note: baseNote } = baseUrlOf(o.op.servers ?? o.pathItem.servers ?? doc.servers, run.baseUrls);
  const fixedQuery: Obj = {};
  const path = pathTemplate(o.path, new Map(fields.filter((f) => f.place === "path").map((f) => [f.wire, f])), fixedQuery);
  const http: Obj = { method: o.method.toUpperCase(), baseUrl, baseUrlEnv: `${envPrefix(server)}_BASE_URL`, path };
  if (Object.keys(fixedQuery).length || Object.keys(query).length) http.query = { ...fixedQuery, ...query };
  if (Object.keys(headers).length) http.headers = headers;
  if (body?.body.kind === "form") http.body = { form };
  else if (body?.body.flat) http.body = { json };
  else if (wholeBody) http.body = { json: wholeBody };
  if (Object.keys(secrets).length) http.secrets = secrets;

  let input: Obj = { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
  if (converted.defs) input.$defs = converted.defs;
  if (hoist) input = hoistSchema(input, run.origins);
  const title = toolTitle(o.op, run);
  const tool: Obj = {
    name,
    ...(title ? { title } : {}),
    description: toolDescription(o.op, o.method, o.path, run),
    annotations: ANNOTATIONS[o.method],
    input,
    http,
    output: outputOf(doc, o.op, o.method, hoist, run),
  };
  return { name, tool, places, notes, secrets: auth.uses.map((u) => ({ env: u.env, holds: u.holds, scheme: u.scheme })), ...(baseNote ? { baseNote } : {}) };
}
