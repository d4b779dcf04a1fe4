// Http tools in IR form: the runtime's HttpToolConfig (minus the tool name), every default explicit.
import type { Json } from "../../../templates/runtime/types.js";
import type { FieldSpec, HttpToolConfig, JsonTemplate, Part } from "../../../templates/kinds/http/config.js";
import type { KindNormalized, RawTool } from "../types.js";
import { parseTemplate } from "./template.js";

export const HTTP_DEFAULTS = { timeoutMs: 30_000, maxResponseBytes: 1_048_576, redirects: "none" as const };

const parts = (text: string): Part[] => (parseTemplate(text) as { parts: Part[] }).parts;

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

function fields(spec: Record<string, Json>): FieldSpec[] {
  return Object.entries(spec).map(([name, v]): FieldSpec => {
    if (typeof v === "string") return { name, value: parts(v) };
    const f = v as { input: string; style?: "repeat" | "comma" | "pipe" | "space"; map?: Record<string, string> };
    return f.map ? { name, map: { input: f.input, values: f.map } } : { name, array: { input: f.input, style: f.style ?? "repeat" } };
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

export function normalizeHttp(tool: RawTool): KindNormalized<HttpIRConfig> {
  const http = tool.http as Record<string, any>;
  const output = (tool.output ?? {}) as { select?: string; raw?: boolean; resource?: boolean; link?: boolean; schema?: Record<string, Json> };
  const base = new URL(http.baseUrl);
  const config: HttpIRConfig = {
    method: http.method,
    origin: base.origin,
    ...(http.baseUrlEnv ? { originEnv: http.baseUrlEnv } : {}),
    basePath: base.pathname.replace(/\/+$/, ""),
    path: String(http.path).split("/").slice(1).map(parts),
    query: fields(http.query ?? {}),
    headers: Object.entries((http.headers ?? {}) as Record<string, string>).map(([name, v]) => ({ name, value: parts(v) })),
    ...(http.body ? { body: "json" in http.body ? { kind: "json", template: jsonTemplate(http.body.json) } : { kind: "form", fields: fields(http.body.form) } } : {}),
    secrets: Object.keys(http.secrets ?? {})
      .sort()
      .map((name) => ({ name, env: http.secrets[name].env, required: http.secrets[name].required ?? true })),
    timeoutMs: http.timeoutMs ?? HTTP_DEFAULTS.timeoutMs,
    maxResponseBytes: http.maxResponseBytes ?? HTTP_DEFAULTS.maxResponseBytes,
    redirects: http.redirects ?? HTTP_DEFAULTS.redirects,
    output: {
      ...(output.select !== undefined ? { select: output.select } : {}),
      ...(output.raw ? { raw: true } : {}),
      ...(output.resource ? { resource: true } : {}),
      ...(output.link ? { link: true } : {}),
      hasSchema: !!output.schema,
    },
  };
  return {
    inputSchema: (tool.input as Record<string, Json> | undefined) ?? { type: "object", properties: {}, additionalProperties: false },
    ...(output.schema ? { outputSchema: output.schema } : {}),
    config,
    annotations: annotationsFor(http.method),
  };
}
