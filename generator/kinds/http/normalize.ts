// Http tools in IR form: the runtime's HttpToolConfig (minus the tool name), every default explicit.
import type { Json } from "../../../templates/runtime/types.js";
import type { FieldSpec, HttpToolConfig, JsonTemplate, Part } from "../../../templates/kinds/http/config.js";
import type { KindNormalized, RawTool } from "../types.js";
import { parseTemplate } from "./template.js";
import type { HttpBlock } from "./schema.js";
import { isObject, stringRecord } from "../../shared/object.js";

export const HTTP_DEFAULTS = { timeoutMs: 30_000, maxResponseBytes: 1_048_576, redirects: "none" as const };

function parts(text: string): Part[] {
  const r = parseTemplate(text);
  if ("error" in r) throw new Error(`http template ${JSON.stringify(text)} reached normalize unchecked: ${r.error}`);
  return r.parts;
}

type Style = "repeat" | "comma" | "pipe" | "space";
const STYLES: readonly Style[] = ["repeat", "comma", "pipe", "space"];
const isStyle = (s: unknown): s is Style => STYLES.some((x) => x === s);

function jsonTemplate(node: Json): JsonTemplate {
  if (typeof node === "string") {
    const p = parts(node);
    if (p.length === 1 && "input" in p[0]) return { input: p[0].input };
    if (p.length === 1 && "secret" in p[0]) return { secret: p[0].secret };
    return p.every((x) => "lit" in x) ? { json: node } : { text: p };
  }
  if (Array.isArray(node)) return { array: node.map(jsonTemplate) };
  if (node && typeof node === "object") return { object: Object.entries(node).map(([k, v]) => [k, jsonTemplate(v)]) };
  return { json: node };
}

function fields(spec: Json | undefined): FieldSpec[] {
  return Object.entries(isObject(spec) ? spec : {}).map(([name, v]): FieldSpec => {
    if (typeof v === "string") return { name, value: parts(v) };
    const f = isObject(v) ? v : {};
    const input = String(f.input);
    return f.map ? { name, map: { input, values: stringRecord(f.map) } } : { name, array: { input, style: isStyle(f.style) ? f.style : "repeat" } };
  });
}

/** MCP annotations follow from the method unless the spec says otherwise. */
function annotationsFor(method: string) {
  const safe = method === "GET" || method === "HEAD";
  return {
    readOnlyHint: safe,
    destructiveHint: method === "PUT" || method === "PATCH" || method === "DELETE",
    idempotentHint: safe || method === "PUT" || method === "DELETE",
    openWorldHint: true,
  };
}

/** An http tool's config in IR form: the runtime's config without the tool name. */
export type HttpIRConfig = Omit<HttpToolConfig, "tool">;

export function normalizeHttp(http: HttpBlock, tool: RawTool): KindNormalized<HttpIRConfig> {
  const output = isObject(tool.output) ? tool.output : {};
  const base = new URL(http.baseUrl);
  const config: HttpIRConfig = {
    method: http.method,
    origin: base.origin,
    ...(http.baseUrlEnv ? { originEnv: http.baseUrlEnv } : {}),
    basePath: base.pathname.replace(/\/+$/, ""),
    path: String(http.path).split("/").slice(1).map(parts),
    query: fields(http.query ?? {}),
    headers: Object.entries(stringRecord(http.headers)).map(([name, v]) => ({ name, value: parts(v) })),
    ...(http.body ? { body: "json" in http.body ? { kind: "json", template: jsonTemplate(http.body.json ?? null) } : { kind: "form", fields: fields(http.body.form) } } : {}),
    secrets: Object.entries(http.secrets ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, s]) => ({ name, env: s.env, required: s.required ?? true })),
    timeoutMs: http.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
    maxResponseBytes: http.maxResponseBytes ?? HTTP_DEFAULTS.maxResponseBytes,
    redirects: http.redirects ?? HTTP_DEFAULTS.redirects,
    output: {
      ...(typeof output.select === "string" ? { select: output.select } : {}),
      ...(output.raw ? { raw: true } : {}),
      ...(output.resource ? { resource: true } : {}),
      ...(output.link ? { link: true } : {}),
      hasSchema: !!output.schema,
    },
  };
  return {
    inputSchema: isObject(tool.input) ? tool.input : { type: "object", properties: {}, additionalProperties: false },
    ...(isObject(output.schema) ? { outputSchema: output.schema } : {}),
    config,
    annotations: annotationsFor(http.method),
  };
}
