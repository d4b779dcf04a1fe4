// `kervan import --resource-templates`: each safe GET operation whose every input is a required path
// parameter is also served as a resource template read by its tool: `/pets/{petId}` of server
// `petstore` becomes `petstore://pets/{petId}`. A parameterless GET stays a tool only (a template
// needs a variable, and a static resource is fixed content); an operation with a query, header, cookie
// or body input stays a tool only (a URI could not carry it); a path the template rules refuse is left out.
import type { Json } from "../../templates/runtime/types.js";
import { templateVariables } from "../check/resource-templates.js";
import type { ImportedTool } from "./tool.js";

type Obj = Record<string, Json>;

/** The server's name as a URI scheme (RFC 3986: a letter, then letters, digits, '+', '-', '.'). */
export function schemeOf(server: string): string {
  const s = server.replace(/[^a-z0-9+.-]/g, "-");
  return /^[a-z]/.test(s) ? s : `api-${s}`;
}

function pathOnly(t: ImportedTool): string[] | undefined {
  const input = t.tool.input as Obj;
  const names = Object.keys((input.properties as Obj | undefined) ?? {});
  const required = (input.required as string[] | undefined) ?? [];
  if (!names.length) return undefined;
  if (!names.every((n) => t.places[n]?.startsWith("path") && required.includes(n))) return undefined;
  return names;
}

/** The resource template of one imported tool, or undefined when it cannot be one. */
function templateOf(scheme: string, t: ImportedTool): Obj | undefined {
  const http = t.tool.http as Obj | undefined;
  if (!http || http.method !== "GET" || typeof http.path !== "string") return undefined;
  const names = pathOnly(t);
  if (!names) return undefined;
  const uriTemplate = `${scheme}://${http.path.slice(1).replace(/\{\{input\.([A-Za-z0-9_]+)\}\}/g, "{$1}")}`;
  const found = templateVariables(uriTemplate);
  if (!("vars" in found) || found.vars.length !== names.length) return undefined;
  const raw = (t.tool.output as Obj | undefined)?.raw === true;
  return {
    uriTemplate,
    name: t.name,
    ...(typeof t.tool.title === "string" ? { title: t.tool.title } : {}),
    description: `${t.tool.description as string} Read through tool ${t.name}.`,
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
    if (rt && !byUri.has(rt.uriTemplate as string)) byUri.set(rt.uriTemplate as string, rt);
  }
  return [...byUri.values()].sort((a, b) => ((a.uriTemplate as string) < (b.uriTemplate as string) ? -1 : 1));
}
