// Prints diagnostics as `file:line:col: error KVxxx: message`, with the source line and a caret.
import type { Diagnostic } from "../model/diagnostic.js";

export function formatDiagnostic(d: Diagnostic, lines?: string[]): string {
  const { file, line, column, pointer } = d.location;
  const where = line ? `${file}:${line}:${column}` : file;
  const out = [`${where}: ${d.severity} ${d.code}: ${d.message}${pointer ? ` (at ${pointer})` : ""}`];
  const source = lines && line ? lines[line - 1] : undefined;
  if (source !== undefined) {
    const gutter = String(line).padStart(4);
    out.push(`${gutter} | ${source}`);
    out.push(`${" ".repeat(gutter.length)} | ${" ".repeat(Math.max(0, column - 1))}^`);
  }
  for (const note of d.notes ?? []) out.push(`  note: ${note}`);
  if (d.suggestion) out.push(`  help: ${d.suggestion}`);
  return out.join("\n");
}

/** Diagnostics sorted by file, line and column, so output is stable. */
export function formatAll(diagnostics: Diagnostic[], sources: Map<string, string[]>): string {
  const sorted = [...diagnostics].sort(
    (a, b) =>
      (a.location.file < b.location.file ? -1 : a.location.file > b.location.file ? 1 : 0) ||
      a.location.line - b.location.line ||
      a.location.column - b.location.column ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
  const errors = sorted.filter((d) => d.severity === "error").length;
  const warnings = sorted.length - errors;
  const summary = `${errors} error${errors === 1 ? "" : "s"}${warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : ""}`;
  return [...sorted.map((d) => formatDiagnostic(d, sources.get(d.location.file))), summary].join("\n\n") + "\n";
}
