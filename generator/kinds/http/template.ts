// `{{input.x}}` / `{{secrets.NAME}}` templates, parsed at build time into the runtime's Part[].
import type { Part } from "../../../templates/kinds/http/config.js";

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const REF = /^(input|secrets)\.([A-Za-z_][A-Za-z0-9_.-]*)$/;

export type ParsedTemplate = { parts: Part[] } | { error: string };

export function parseTemplate(text: string): ParsedTemplate {
  const parts: Part[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m.index! > last) parts.push({ lit: text.slice(last, m.index) });
    const ref = REF.exec(m[1]);
    if (!ref) return { error: `'{{${m[1]}}}' is not a placeholder: write {{input.FIELD}} or {{secrets.NAME}}` };
    parts.push(ref[1] === "input" ? { input: ref[2] } : { secret: ref[2] });
    last = m.index! + m[0].length;
  }
  if (last < text.length) parts.push({ lit: text.slice(last) });
  const rest = parts.filter((p): p is { lit: string } => "lit" in p).map((p) => p.lit).join("");
  if (rest.includes("{{") || rest.includes("}}")) return { error: `unbalanced '{{' or '}}' in ${JSON.stringify(text)}` };
  return { parts };
}

export const inputsOf = (parts: Part[]) => parts.flatMap((p) => ("input" in p ? [p.input] : []));
export const secretsOf = (parts: Part[]) => parts.flatMap((p) => ("secret" in p ? [p.secret] : []));
