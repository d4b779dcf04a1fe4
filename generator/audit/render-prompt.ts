// AUDIT.md's prompts: each prompt's arguments, what it asks the user, and its messages' templates.
// A prompt runs nothing and reaches nothing: it returns its messages filled from the arguments.
import type { Json } from "../../templates/runtime/types.js";
import type { ManifestPrompt } from "./types.js";
import { code } from "../shared/markdown.js";
import { isObject } from "../shared/object.js";

function content(c: Json): string {
  const o = isObject(c) ? c : {};
  if (o.type === "text") return `text ${code(String(o.text))}`;
  if (o.type === "resource") {
    const r = isObject(o.resource) ? o.resource : {};
    return `embedded resource ${code(String(r.uri))}${typeof r.mimeType === "string" ? ` (${r.mimeType})` : ""}: ${code(String(r.text))}`;
  }
  if (o.type === "image") return `image ${String(o.mimeType)}, ${String(o.bytes)} bytes, sha256 ${code(String(o.sha256))}`;
  return `${String(o.type)} content`;
}

export function renderPrompts(prompts: ManifestPrompt[] | undefined): string[] {
  if (!prompts?.length) return [];
  const out = ["## Prompts", "", "A prompt runs nothing and reaches nothing: prompts/get returns its messages with `{argument}` filled in.", ""];
  for (const p of [...prompts].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    out.push(`### ${p.name}${p.title ? ` — ${p.title}` : ""}`, "");
    if (p.description) out.push(p.description.replace(/\s+/g, " ").trim(), "");
    const args = p.arguments.map((a) => `${code(a.name)}${a.required ? " (required)" : ""}`);
    out.push(`- Arguments: ${args.length ? args.join(", ") : "none"}`);
    for (const a of p.ask ?? []) out.push(`- Asks the user for ${code(a.field)}${a.inputKey ? ` (input request id ${code(a.inputKey)})` : ""} when the caller leaves it out: ${code(a.message)}; a decline renders nothing`);
    p.messages.forEach((m, i) => out.push(`- Message ${i + 1} (${m.role}): ${content(m.content)}`));
    out.push("");
  }
  return out;
}
