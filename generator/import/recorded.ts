// The options an import was made with, recorded in the spec's header as one JSON comment line, so
// that the re-import command printed above it (`kervan import FILE --out SPEC`) reproduces the spec:
// a re-import reuses every recorded option its command does not give. The record also names the
// source document, and a re-import from another document is refused by name, never diffed.
import { ImportError } from "./read.js";
import { isObject, stringsOf } from "../shared/object.js";

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
  /** Recorded only when off (false): hoisting is the default. */
  hoist?: boolean;
  /** Recorded only when on: the lean texts are the default. */
  fullText?: boolean;
}

/** The option keys a command may give or a record may hold, in the record's order. */
const KEYS = ["name", "profile", "includeTags", "includeOps", "excludeOps", "exposure", "maxTools", "includeDeprecated", "resourceTemplates", "hoist", "fullText"] as const;
type Key = (typeof KEYS)[number];
export type Given = Partial<Pick<Recorded, Key>>;

/** What each recorded option holds: a record whose option holds anything else is not valid. */
const KIND: Record<Key, "string" | "list" | "number" | "boolean"> = {
  name: "string",
  profile: "string",
  includeTags: "list",
  includeOps: "list",
  excludeOps: "list",
  exposure: "string",
  maxTools: "number",
  includeDeprecated: "boolean",
  resourceTemplates: "boolean",
  hoist: "boolean",
  fullText: "boolean",
};

/** One option copied from `from` to `to`. */
function copy<K extends Key>(to: Given, from: Given, key: K): void {
  to[key] = from[key];
}

const LINE = " Recorded import options (a re-import reuses them unless its command gives others): ";
const LINE_PATTERN = /^# Recorded import options \([^)]*\): (\{.*\})$/m;
/** The header line of imports made before the record existed: only the source is known. */
const LEGACY_PATTERN = /^# Imported by `kervan import` from (.+) \(/m;

/** The record of an import (lists as given, empty ones and unset options left out). */
export function recordOf(source: string, options: Given & { name: string }): Recorded {
  const record: Recorded = { source, name: options.name, profile: options.profile ?? "generic" };
  for (const key of KEYS) {
    const v = options[key];
    if (key === "name" || key === "profile" || v === undefined || (v === false && key !== "hoist") || (v === true && key === "hoist")) continue;
    if (Array.isArray(v) && !v.length) continue;
    copy(record, options, key);
  }
  return record;
}

/** The record's header line (a comment line, after `#`). */
export const recordLine = (record: Recorded) => `${LINE}${JSON.stringify(record)}`;

/** What an existing spec says about its import: the record, only its source (older imports), or nothing (not an import). */
export function readRecord(path: string, text: string): { record?: Given; source?: string } {
  const line = LINE_PATTERN.exec(text);
  if (line) {
    let record: unknown;
    try {
      record = JSON.parse(line[1]);
    } catch {
      record = undefined;
    }
    const given = isObject<unknown>(record) && typeof record.source === "string" ? givenOf(record) : undefined;
    if (!isObject<unknown>(record) || typeof record.source !== "string" || !given) {
      throw new ImportError("existing-spec-invalid", `${path}: its recorded import options are not a valid record; restore the line or remove it`);
    }
    return { record: given, source: record.source };
  }
  const legacy = LEGACY_PATTERN.exec(text);
  if (!legacy) return {};
  // An import made before the record: its server name and profile are read back from the spec.
  const name = /^server:\s*(?:\{\s*name:\s*([^,}\s]+)|\n\s+name:\s*(\S+))/m.exec(text);
  const profile = / profile ([a-z]+)\.$/m.exec(legacy[0] + text.slice(legacy.index + legacy[0].length).split("\n")[0]);
  const named = name?.[1] ?? name?.[2];
  return { source: legacy[1], ...(named ? { record: { name: named, profile: profile?.[1] ?? "generic" } } : {}) };
}

/** A parsed record's options; undefined when it names no server or an option holds the wrong kind of value. */
function givenOf(v: Record<string, unknown>): Given | undefined {
  const fits = (key: Key) => {
    const x = v[key];
    return x === undefined || (KIND[key] === "list" ? Array.isArray(x) && x.every((s) => typeof s === "string") : typeof x === KIND[key]);
  };
  if (typeof v.name !== "string" || !KEYS.every(fits)) return undefined;
  const text = (x: unknown) => (typeof x === "string" ? x : undefined);
  const flag = (x: unknown) => (typeof x === "boolean" ? x : undefined);
  return {
    name: v.name,
    profile: text(v.profile),
    includeTags: stringsOf(v.includeTags),
    includeOps: stringsOf(v.includeOps),
    excludeOps: stringsOf(v.excludeOps),
    exposure: text(v.exposure),
    maxTools: typeof v.maxTools === "number" ? v.maxTools : undefined,
    includeDeprecated: flag(v.includeDeprecated),
    resourceTemplates: flag(v.resourceTemplates),
    hoist: flag(v.hoist),
  };
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
  for (const key of KEYS) if (merged[key] === undefined && record[key] !== undefined) copy(merged, record, key);
  return merged;
}
