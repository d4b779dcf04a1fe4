// Small Markdown helpers: inline code that survives backticks, and table cells that survive pipes.
import type { Json } from "../../templates/runtime/types.js";
import { commentText } from "./codegen.js";

export function code(raw: string): string {
  // Line breaks and control characters shown as escapes: one span stays on its line.
  const text = commentText(raw);
  const runs = text.match(/`+/g) ?? [];
  const fence = "`".repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

export const cell = (text: string) => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

/** A list of names as inline code, or "none". */
export const names = (xs: readonly string[]) => (xs.length ? xs.map(code).join(", ") : "none");

/** One line of plain text for a JSON value (objects as compact JSON). */
export function plain(v: Json | undefined): string {
  if (v === null || v === undefined) return "none";
  if (typeof v === "string") return code(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => plain(x)).join(", ") : "none";
  return code(JSON.stringify(v));
}
