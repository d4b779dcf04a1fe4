// Diagnostics are data: every stage reports problems this way and the CLI prints them.

export type Severity = "error" | "warning";

export interface Location {
  file: string;
  /** 1-based; 0 when the problem has no place in a file (e.g. a missing file). */
  line: number;
  column: number;
  /** JSON pointer into the spec document. */
  pointer: string;
}

export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  location: Location;
  notes?: string[];
  suggestion?: string;
}
