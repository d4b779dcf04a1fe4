// The output of the load stage: each spec as plain JSON plus a map from JSON pointers to
// source positions, so any later stage can point at file:line:col.

export interface SourceFile {
  /** Path as given (relative to the working directory when possible); used in messages and headers. */
  path: string;
  text: string;
}

export interface Position {
  line: number;
  column: number;
}

export interface LoadedSpec {
  file: string;
  /** The document as plain JSON data (undefined when it failed to parse). */
  doc: unknown;
  /** Pointer -> position of the value at that pointer. */
  positions: Record<string, Position>;
  /** Pointer -> position of the key that introduces the value (for "unknown property" errors). */
  keyPositions: Record<string, Position>;
  /** Source lines, for printing diagnostics with context. */
  lines: string[];
  /** Extra files the spec pulled in (`@file` schemas): path -> sha256, part of the input hash. */
  includes: Record<string, string>;
  /** Images prompt messages carry (`image: "@file"`), read at load: pointer of the reference -> bytes as base64. */
  images?: Record<string, { data: string; mimeType: string; sha256: string; bytes: number }>;
  /** Files static resources serve (`resources: - file:`), read at load: pointer of the reference -> bytes as base64, the path relative to the spec's folder. */
  resourceFiles?: Record<string, { data: string; sha256: string; bytes: number; path: string }>;
  /** sha256 of the spec text. */
  hash: string;
  /** Pointer -> source text of each unquoted value YAML read as a number, boolean or null (for hints). */
  unquoted?: Record<string, string>;
  /**
   * Pointer of a key that a comma inside a flow mapping split off the value before it -> that value
   * written whole and quoted, e.g. `description: "File to read, relative to the root."` (for hints).
   */
  flowSplits?: Record<string, string>;
}
