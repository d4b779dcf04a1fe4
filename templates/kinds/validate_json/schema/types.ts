// Shapes shared by the call-time JSON Schema interpreter. Keywords compile to closures once per schema
// (plain functions over data, no generated code); a Run carries per-validation state.

export type Draft = 4 | 6 | 7 | 2019 | 2020;

/** Instance location as a parent-linked list, built only when errors are being collected. */
export interface PathNode {
  up: PathNode | null;
  key: string | number;
}

export interface VError {
  path: PathNode | null;
  keyword: string;
  /** Where in the schema, as a URI fragment: #/properties/a/minimum. */
  schemaPath: string;
  message: string;
  value: unknown;
  /** For anyOf/oneOf/propertyNames: the closest alternative's own failures. */
  detail?: VError[];
}

/** Annotations that unevaluatedProperties/unevaluatedItems read (2019-09 and 2020-12 only). */
export interface Eval {
  props: Set<string>;
  allProps: boolean;
  /** Items [0, items) were evaluated. */
  items: number;
  itemSet: Set<number> | null;
  allItems: boolean;
}

export interface PatternInfo {
  id: number;
  /** As written in the schema (Python re syntax). */
  source: string;
  /** The JavaScript `u`-mode translation. */
  js: string;
  /** First schema location using it, e.g. #/properties/id/pattern. */
  where: string;
  /** Backtracking cost bound exponent, see translatePythonPattern; null when unbounded. */
  cheapDegree: number | null;
}

/** Answers whether a pattern matches; the worker-backed matcher may answer "not yet known". */
export interface RegexOracle {
  test(p: PatternInfo, s: string): boolean;
}

export interface Run {
  /** null: fast boolean mode that stops at the first failure. */
  errors: VError[] | null;
  regex: RegexOracle;
}

export type Check = (v: unknown, run: Run, path: PathNode | null, ev: Eval | null) => boolean;

export function newEval(): Eval {
  return { props: new Set(), allProps: false, items: 0, itemSet: null, allItems: false };
}

export function mergeEval(into: Eval, from: Eval): void {
  if (from.allProps) into.allProps = true;
  else for (const k of from.props) into.props.add(k);
  if (from.allItems) into.allItems = true;
  if (from.items > into.items) into.items = from.items;
  if (from.itemSet) {
    into.itemSet ??= new Set();
    for (const i of from.itemSet) into.itemSet.add(i);
  }
}

export function fail(run: Run, path: PathNode | null, keyword: string, schemaPath: string, message: string, value: unknown): false {
  if (run.errors) run.errors.push({ path, keyword, schemaPath, message, value });
  return false;
}

export function child(run: Run, path: PathNode | null, key: string | number): PathNode | null {
  return run.errors ? { up: path, key } : null;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** What the keyword files (kw-*.ts) need of the compiler (schema/compile.ts). */
export interface SubschemaCompiler {
  readonly draft: Draft;
  readonly pattern: (source: string) => PatternInfo;
  /** The check for a subschema at `ptr` (a URI fragment such as #/properties/a). */
  node(schema: unknown, ptr: string): Check;
}
