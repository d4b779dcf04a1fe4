// The request of an http tool as the spec wrote it (method, URL with path and query, headers,
// body), rebuilt from its config for a comment beside the config in the emitted module. Plain
// text lines: the emitter makes them safe comment text.
import type { FieldSpec, JsonTemplate, Part } from "../../../templates/kinds/http/config.js";
import type { Json } from "../../../templates/runtime/types.js";
import type { HttpIRConfig } from "./normalize.js";

const show = (parts: Part[]) => parts.map((p) => ("lit" in p ? p.lit : "input" in p ? `{{input.${p.input}}}` : `{{secrets.${p.secret}}}`)).join("");

function field(f: FieldSpec): string {
  if ("value" in f) return `${f.name}=${show(f.value)}`;
  if ("array" in f) return `${f.name}={{input.${f.array.input}}} (array, ${f.array.style})`;
  return `${f.name}={{input.${f.map.input}}} (mapped: ${Object.entries(f.map.values).map(([k, v]) => `${k} -> ${v}`).join(", ")})`;
}

function asWritten(t: JsonTemplate): Json {
  if ("json" in t) return t.json;
  if ("input" in t) return `{{input.${t.input}}}`;
  if ("secret" in t) return `{{secrets.${t.secret}}}`;
  if ("text" in t) return show(t.text);
  if ("array" in t) return t.array.map(asWritten);
  return Object.fromEntries(t.object.map(([k, v]) => [k, asWritten(v)]));
}

export function readableRequest(c: HttpIRConfig): string[] {
  const query = c.query.map(field);
  const lines = [`Request as written: ${c.method} ${c.origin}${c.basePath}/${c.path.map(show).join("/")}`];
  if (c.originEnv) lines.push(`  (${c.originEnv}, when set, replaces ${c.origin}${c.basePath} at startup)`);
  for (const q of query) lines.push(`  query   ${q}`);
  for (const h of c.headers) lines.push(`  header  ${h.name}: ${show(h.value)}`);
  if (c.body?.kind === "json") lines.push(`  body    json ${JSON.stringify(asWritten(c.body.template))}`);
  if (c.body?.kind === "form") for (const f of c.body.fields) lines.push(`  form    ${field(f)}`);
  return lines;
}
