// The only ways user text enters generated code: as an identifier, a literal or a doc comment.

/** A JavaScript identifier from any name: invalid characters become _, never empty, never reserved. */
export function ident(name: string): string {
  let id = name.replace(/[^A-Za-z0-9_$]/g, "_");
  if (!id || /^[0-9]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  return id;
}

/** PascalCase type name from a tool name. */
export function typeName(name: string): string {
  const parts = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const id = parts.map((p) => p[0].toUpperCase() + p.slice(1)).join("");
  return ident(id || "Tool");
}

/** A JSON-compatible value as a JavaScript literal (line separators escaped), pretty when asked. */
export function literal(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  if (text === undefined) return "undefined";
  return text.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Text safe inside a /** *\/ comment. */
export function docComment(text: string): string {
  return text.replace(/\*\//g, "*\\/").replace(/\r\n?/g, "\n");
}

const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await arguments eval undefined NaN Infinity").split(" "),
);

const IDENT_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A JSON-compatible value as readable TypeScript: identifier keys unquoted, short arrays of
 * scalars on one line, two-space indentation. Strings and keys still go through literal().
 */
export function code(value: unknown, indent = ""): string {
  if (value === null || typeof value !== "object") return literal(value);
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    const items = value.map((v) => code(v, inner));
    const flat = `[${items.join(", ")}]`;
    if (value.every((v) => v === null || typeof v !== "object") && flat.length <= 100) return flat;
    if (flat.length <= 60 && !flat.includes("\n")) return flat;
    return `[\n${items.map((i) => inner + i).join(",\n")},\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (!entries.length) return "{}";
  const fields = entries.map(([k, v]) => `${IDENT_KEY.test(k) && !RESERVED.has(k) ? k : literal(k)}: ${code(v, inner)}`);
  const flat = `{ ${fields.join(", ")} }`;
  if (flat.length <= 60 && !flat.includes("\n")) return flat;
  return `{\n${fields.map((f) => inner + f).join(",\n")},\n${indent}}`;
}
