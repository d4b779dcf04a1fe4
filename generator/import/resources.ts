// `kervan import --resource-templates`: each safe GET operation whose every input is a required path
// parameter is also served as a resource template read by its tool: `/pets/{petId}` of server
// `petstore` becomes `petstore://pets/{petId}`. A parameterless GET stays a tool only (a template
// needs a variable, and a static resource is fixed content); an operation with a query, header, cookie
// or body input stays a tool only (a URI could not carry it); a path the template rules refuse is left out.
import type { Json } from "../../templates/runtime/types.js";
import { templateVariables } from "../check/resource-templates.js";
import type { ImportedTool } from "./tool.js";
import { isObject } from "../shared/object.js";

type Obj = Record<string, Json>;

/** The server's name as a URI scheme (RFC 3986: a letter, then letters, digits, '+', '-', '.'). */
export function schemeOf(server: string): string {
  const s = server.replace(/[^a-z0-9+.-]/g, "-");
  return /^[a-z]/.test(s) ? s : `api-${s}`;
}

/** The tool's input names when every one is a required path parameter (at least one), else undefined. */
function pathOnly(t: ImportedTool): string[] | undefined {
  const input = t.tool.input;
  if (!isObject(input) || !isObject(input.properties)) return undefined;
  const names = Object.keys(input.properties);
  const required = Array.isArray(input.required) ? input.required : [];
  if (!names.length || !names.every((n) => t.places[n]?.startsWith("path") && required.includes(n))) return undefined;
  return names;
}

/** The resource template of one imported tool, or undefined when it cannot be one. */
function templateOf(scheme: string, t: ImportedTool): Obj | undefined {
  const http = t.tool.http;
  if (!isObject(http) || http.method !== "GET" || typeof http.path !== "string") return undefined;
  const names = pathOnly(t);
  if (!names) return undefined;
  const uriTemplate = `${scheme}://${http.path.slice(1).replace(/\{\{input\.([A-Za-z0-9_]+)\}\}/g, "{$1}")}`;
  const found = templateVariables(uriTemplate);
  if (!("vars" in found) || found.vars.length !== names.length) return undefined;
  const raw = isObject(t.tool.output) && t.tool.output.raw === true;
  return {
    uriTemplate,
    name: t.name,
    ...(typeof t.tool.title === "string" ? { title: t.tool.title } : {}),
    description: `${String(t.tool.description)} Read through tool ${t.name}.`,
    mimeType: raw ? "text/plain" : "application/json",
    tool: t.name,
  };
}

/** The resource templates of the imported tools, sorted by URI template; one per URI template. */
export function resourceTemplatesOf(server: string, tools: ImportedTool[]): Obj[] {
  const scheme = schemeOf(server);
  const byUri = new Map<string, Obj>();
  for (const t of tools) {
    const rt = templateOf(scheme, t);
    const uri = rt ? String(rt.uriTemplate) : "";
    if (rt && !byUri.has(uri)) byUri.set(uri, rt);
  }
  return [...byUri.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, rt]) => rt);
}
