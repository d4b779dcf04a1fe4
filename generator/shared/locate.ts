// Builds a diagnostic at a JSON pointer, falling back to the nearest ancestor with a position.
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec, Position } from "../model/spec.js";

export function positionOf(spec: LoadedSpec, pointer: string, atKey = false): Position {
  let p = pointer;
  for (;;) {
    const pos = (atKey && spec.keyPositions[p]) || spec.positions[p];
    if (pos) return pos;
    if (!p) return { line: 1, column: 1 };
    p = p.slice(0, p.lastIndexOf("/"));
  }
}

export function at(
  spec: LoadedSpec,
  code: string,
  message: string,
  pointer: string,
  extra: Partial<Pick<Diagnostic, "severity" | "notes" | "suggestion">> & { atKey?: boolean } = {},
): Diagnostic {
  const { atKey, ...rest } = extra;
  const pos = positionOf(spec, pointer, atKey);
  return { code, severity: "error", message, location: { file: spec.file, line: pos.line, column: pos.column, pointer }, ...rest };
}
