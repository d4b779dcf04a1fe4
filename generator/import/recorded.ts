// The options an import was made with, recorded in the spec's header as one JSON comment line, so
// that the re-import command printed above it (`kervan import FILE --out SPEC`) reproduces the spec:
// a re-import reuses every recorded option its command does not give. The record also names the
// source document, and a re-import from another document is refused by name, never diffed.
import { ImportError } from "./read.js";

/** What an import is made with, as recorded; `exposure` is passed through as given. */
export interface Recorded {
  source: string;
  name: string;
  profile: string;
  includeTags?: string[];
  includeOps?: string[];
  excludeOps?: string[];
  exposure?: string;
  maxTools?: number;
  includeDeprecated?: boolean;
  resourceTemplates?: boolean;
}

/** The option keys a command may give or a record may hold, in the record's order. */
const KEYS = ["name", "profile", "includeTags", "includeOps", "excludeOps", "exposure", "maxTools", "includeDeprecated", "resourceTemplates"] as const;
type Key = (typeof KEYS)[number];
export type Given = Partial<Pick<Recorded, Key>>;

const LINE = " Recorded import options (a re-import reuses them unless its command gives others): ";
const LINE_PATTERN = /^# Recorded import options \([^)]*\): (\{.*\})$/m;
/** The header line of imports made before the record existed: only the source is known. */
const LEGACY_PATTERN = /^# Imported by `kervan import` from (.+) \(/m;

/** The record of an import (lists as given, empty ones and unset options left out). */
export function recordOf(source: string, options: Given & { name: string }): Recorded {
  const record: Recorded = { source, name: options.name, profile: options.profile ?? "generic" };
  for (const key of KEYS) {
    const v = options[key];
    if (key === "name" || key === "profile" || v === undefined || v === false) continue;
    if (Array.isArray(v) && !v.length) continue;
    (record as unknown as Record<string, unknown>)[key] = v;
  }
  return record;
}

/** The record's header line (a comment line, after `#`). */
export const recordLine = (record: Recorded) => `${LINE}${JSON.stringify(record)}`;

/** What an existing spec says about its import: the record, only its source (older imports), or nothing (not an import). */
export function readRecord(path: string, text: string): { record?: Recorded; source?: string } {
  const line = LINE_PATTERN.exec(text);
  if (line) {
    let record: unknown;
    try {
      record = JSON.parse(line[1]);
    } catch {
      record = undefined;
    }
    if (!record || typeof record !== "object" || typeof (record as Recorded).source !== "string" || typeof (record as Recorded).name !== "string") {
      throw new ImportError("existing-spec-invalid", `${path}: its recorded import options are not a valid record; restore the line or remove it`);
    }
    return { record: record as Recorded, source: (record as Recorded).source };
  }
  const legacy = LEGACY_PATTERN.exec(text);
  if (!legacy) return {};
  // An import made before the record: its server name and profile are read back from the spec.
  const name = /^server:\s*(?:\{\s*name:\s*([^,}\s]+)|\n\s+name:\s*(\S+))/m.exec(text);
  const profile = / profile ([a-z]+)\.$/m.exec(legacy[0] + text.slice(legacy.index + legacy[0].length).split("\n")[0]);
  const named = name?.[1] ?? name?.[2];
  return { source: legacy[1], ...(named ? { record: { source: legacy[1], name: named, profile: profile?.[1] ?? "generic" } } : {}) };
}

/** The options of a re-import of `existing` (at `path`) from `source`: the command's, then the record's. Refuses another source or a spec that is not an import. */
export function reimportOptions(path: string, existing: string, source: string, given: Given): Given {
  const { record, source: was } = readRecord(path, existing);
  if (was === undefined) throw new ImportError("not-imported", `${path} exists and was not written by kervan import; nothing written. Choose another --out (or --name) for this import`);
  if (was !== source) {
    throw new ImportError(
      "other-source",
      `${path} was imported from ${was}, and ${source} is another document; nothing written. Choose another --out (or --name), or, if ${source} is ${was} moved, change the source in the spec's recorded import options first`,
    );
  }
  if (!record) return given;
  const merged: Given = { ...given };
  for (const key of KEYS) if (merged[key] === undefined && record[key] !== undefined) (merged as Record<string, unknown>)[key] = record[key];
  return merged;
}
