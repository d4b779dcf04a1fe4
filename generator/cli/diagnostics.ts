// Prints diagnostics as `file:line:col: error KVxxx: message`, with the source line and a caret.
// On a terminal the severity, the caret and `help:` are coloured (cli/output.ts decides when).
import type { Diagnostic } from "../model/diagnostic.js";
import { paint, type Paint } from "./output.js";

export function formatDiagnostic(d: Diagnostic, lines?: string[], p: Paint = paint(false)): string {
  const { file, line, column, pointer } = d.location;
  const where = line ? `${file}:${line}:${column}` : file;
  const severity = p(d.severity === "error" ? "red" : "yellow", `${d.severity} ${d.code}`);
  const out = [`${p("bold", `${where}:`)} ${severity}: ${d.message}${pointer ? p("dim", ` (at ${pointer})`) : ""}`];
  const source = lines && line ? lines[line - 1] : undefined;
  if (source !== undefined) {
    const gutter = String(line).padStart(4);
    out.push(`${gutter} | ${source}`);
    out.push(`${" ".repeat(gutter.length)} | ${" ".repeat(Math.max(0, column - 1))}${p(d.severity === "error" ? "red" : "yellow", "^")}`);
  }
  for (const note of d.notes ?? []) out.push(`  note: ${note}`);
  if (d.suggestion) out.push(`  ${p("cyan", "help:")} ${d.suggestion}`);
  return out.join("\n");
}

/** Past this many warnings, they are summarised by code instead of printed one by one. */
export const WARNINGS_IN_FULL = 50;

/** One line per code: how many, what the first one says and where. */
function summariseWarnings(warnings: Diagnostic[]): string {
  const byCode = new Map<string, Diagnostic[]>();
  for (const w of warnings) byCode.set(w.code, [...(byCode.get(w.code) ?? []), w]);
  const width = Math.max(...[...byCode.values()].map((ds) => String(ds.length).length));
  const lines = [...byCode.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, ds]) => {
      const { file, line, column } = ds[0].location;
      return `  ${code} ${String(ds.length).padStart(width)}  first: ${file}:${line}:${column}: ${ds[0].message}`;
    });
  return [`${warnings.length} warnings, summarised by code (more than ${WARNINGS_IN_FULL}; \`--strict\` shows each one, as an error):`, ...lines].join("\n");
}

/** Diagnostics sorted by file, line, column and code, so output is stable. */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      (a.location.file < b.location.file ? -1 : a.location.file > b.location.file ? 1 : 0) ||
      a.location.line - b.location.line ||
      a.location.column - b.location.column ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

/** Every diagnostic (warnings summarised past WARNINGS_IN_FULL) and the count line, in stable order. */
export function formatAll(diagnostics: Diagnostic[], sources: Map<string, string[]>, colour = false): string {
  const sorted = sortDiagnostics(diagnostics);
  const errors = sorted.filter((d) => d.severity === "error").length;
  const warnings = sorted.filter((d) => d.severity !== "error");
  const summary = `${errors} error${errors === 1 ? "" : "s"}${warnings.length ? `, ${warnings.length} warning${warnings.length === 1 ? "" : "s"}` : ""}`;
  const summarise = warnings.length > WARNINGS_IN_FULL;
  const shown = summarise ? sorted.filter((d) => d.severity === "error") : sorted;
  const parts = shown.map((d) => formatDiagnostic(d, sources.get(d.location.file), paint(colour)));
  if (summarise) parts.push(summariseWarnings(warnings));
  return [...parts, summary].join("\n\n") + "\n";
}
