// Writes the imported spec as YAML for review: a header naming the source, base URL, secrets and
// skipped operations; each tool's notes above it; each input's place above its key. Short schemas
// are written in flow style, as hand-written specs are (yaml-writer.ts).
import type { Json } from "../../templates/runtime/types.js";
import type { Doc } from "./read.js";
import type { ImportedTool } from "./tool.js";
import { cleanText } from "./describe.js";
import { writeYaml, type Path } from "./yaml-writer.js";
import { addressWarning } from "./server-url.js";
import { recordLine, type Recorded } from "./recorded.js";
import { dirname } from "node:path";
import { editorSchemaLine } from "../shared/editor-schema.js";
import { resourceTemplatesOf } from "./resources.js";
import { isObject } from "../shared/object.js";

const httpOf = (t: ImportedTool | undefined) => (isObject(t?.tool.http) ? t.tool.http : undefined);

/** Warnings on the tools' base URLs (loopback, link-local, cloud metadata), one per URL. */
export function serverWarnings(tools: ImportedTool[]): string[] {
  const urls = new Set(tools.map((t) => httpOf(t)?.baseUrl).filter((u): u is string => typeof u === "string"));
  return [...urls].map(addressWarning).filter((w): w is string => w !== undefined);
}

interface Meta {
  file: string;
  out: string;
  title: string;
  apiVersion: string;
  version: string;
  profile: string;
  record: Recorded;
}

function header(server: string, tools: ImportedTool[], skipped: Array<{ operation: string; reason: string }>, meta: Meta): string[] {
  const lines = [
    ` Imported by \`kervan import\` from ${meta.file} (${meta.title}${meta.apiVersion ? ` ${meta.apiVersion}` : ""}, ${meta.version.startsWith("2") ? "Swagger" : "OpenAPI"} ${meta.version}), profile ${meta.profile}.`,
    " Review it like code: tool names, descriptions, and what each tool may send where.",
    ` Re-import after the API changes: kervan import ${meta.file} --out ${meta.out} (prints the changelog).`,
    recordLine(meta.record),
  ];
  const base = httpOf(tools[0]);
  if (base) lines.push(` Base URL ${base.baseUrl}; ${base.baseUrlEnv} points the server elsewhere.`);
  const notes = [...new Set(tools.map((t) => t.baseNote).filter(Boolean))];
  for (const n of notes) lines.push(` Note: ${n}: set ${base?.baseUrlEnv} before starting the server.`);
  for (const w of serverWarnings(tools)) lines.push(` Warning: ${w}.`);
  const secrets = new Map<string, string>();
  for (const t of tools) for (const s of t.secrets) secrets.set(s.env, `${s.holds} [scheme ${s.scheme}]`);
  if (secrets.size) {
    lines.push(" Secrets, read from the environment at startup:");
    for (const [env, holds] of [...secrets.entries()].sort()) lines.push(`   ${env}: ${holds}`);
  } else lines.push(" Secrets: none.");
  if (skipped.length) {
    lines.push(` Skipped operations (${skipped.length}):`);
    for (const s of skipped) lines.push(`   ${s.operation}: ${s.reason}`);
  }
  void server;
  return lines;
}

/** The spec as data: what renderSpec writes and what the check stage judges. */
export function specData(api: Doc, server: string, tools: ImportedTool[]): Json {
  const instructions = cleanText(api.info?.description, 600);
  return {
    server: {
      name: server,
      version: "0.1.0",
      title: cleanText(api.info?.title, 120) || server,
      ...(instructions ? { instructions } : {}),
      // --exposure catalog (docs/catalog.md): the server lists search/describe/call tools, each tool carries its tags for search.
      ...(api.exposure === "catalog" ? { exposure: "catalog" } : {}),
    },
    tools: tools.map((t) => t.tool),
    ...templatesOf(api, server, tools),
  };
}

/** The header line naming the resource templates written, if any. */
function templatesLine(data: Json): string[] {
  const list = isObject(data) && Array.isArray(data.resourceTemplates) ? data.resourceTemplates : [];
  return list.length ? [` Resource templates (--resource-templates), each read by its GET tool: ${list.length}.`] : [];
}

/** --resource-templates (resources.ts): the path-parameter GETs also as resource templates, when any. */
function templatesOf(api: Doc, server: string, tools: ImportedTool[]): { resourceTemplates?: Json } {
  if (api.resourceTemplates !== true) return {};
  const list = resourceTemplatesOf(server, tools);
  return list.length ? { resourceTemplates: list } : {};
}

export function renderSpec(api: Doc, server: string, tools: ImportedTool[], skipped: Array<{ operation: string; reason: string }>, meta: Meta): string {
  // Comments: each tool's notes above its list item, each input property's place above its key.
  const commentAt = (path: Path): string[] | undefined => {
    const at = path[1];
    if (path[0] !== "tools" || typeof at !== "number") return undefined;
    const t = tools[at];
    if (path.length === 2) return t.notes.length ? t.notes.map((n) => ` ${n}`) : undefined;
    if (path.length !== 5 || path[2] !== "input" || path[3] !== "properties") return undefined;
    const place = Object.hasOwn(t.places, path[4]) ? t.places[path[4]] : undefined;
    return place ? [` ${place}`] : undefined;
  };
  const data = specData(api, server, tools);
  return writeYaml(data, { header: [editorSchemaLine(dirname(meta.out)), ...header(server, tools, skipped, meta), ...templatesLine(data)], commentAt });
}
