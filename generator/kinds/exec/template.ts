// argv templates: `{field}` inserts a validated scalar inside one argument; `{{` and `}}` are literal braces.

export type ArgPart = string | { field: string };

export const FIELD_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Parses one argument template; returns the parts or a reason it is malformed. */
export function parseArgTemplate(template: string): { parts: ArgPart[] } | { error: string } {
  const parts: ArgPart[] = [];
  let text = "";
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    const next = template[i + 1];
    if (ch === "{" && next === "{") {
      text += "{";
      i += 2;
    } else if (ch === "}" && next === "}") {
      text += "}";
      i += 2;
    } else if (ch === "{") {
      const end = template.indexOf("}", i + 1);
      if (end < 0) return { error: `unclosed placeholder in ${JSON.stringify(template)}; write {{ for a literal brace` };
      const name = template.slice(i + 1, end);
      if (!FIELD_NAME.test(name)) {
        return { error: `invalid placeholder {${name}}: a field name is 1-128 letters, digits, '.', '_' or '-'` };
      }
      if (text) parts.push(text);
      text = "";
      parts.push({ field: name });
      i = end + 1;
    } else if (ch === "}") {
      return { error: `unmatched '}' in ${JSON.stringify(template)}; write }} for a literal brace` };
    } else {
      text += ch;
      i += 1;
    }
  }
  if (text || parts.length === 0) parts.push(text);
  return { parts };
}

/** Field names in first-use order across a whole argv. */
export function placeholderNames(argv: ArgPart[][]): string[] {
  const names: string[] = [];
  for (const arg of argv) for (const p of arg) if (typeof p !== "string" && !names.includes(p.field)) names.push(p.field);
  return names;
}

export { isGroup, flatArgs, type ArgGroup, type ArgEntry } from "../../../templates/kinds/exec/config.js";
