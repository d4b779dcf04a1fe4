// Which OpenAPI component a converted subschema was inlined from, kept beside the schema (never in
// it), in the import's run: the `$defs` hoisting (hoist.ts) names a repeated subschema after its
// component.

/** Converted subschema -> the `$ref` it was inlined from. */
export type Origins = WeakMap<object, string>;

/** Records that `node` is the conversion of the component `ref` points at. */
export function noteOrigin(origins: Origins, node: unknown, ref: string): void {
  if (node && typeof node === "object") origins.set(node, ref);
}

/** The `$ref` a converted subschema was inlined from, if any. */
export function originOf(origins: Origins | undefined, node: unknown): string | undefined {
  return origins && node && typeof node === "object" ? origins.get(node) : undefined;
}

/** A copy (`to`) of a converted subschema keeps the origin of `from`. */
export function carryOrigin<T>(origins: Origins | undefined, from: unknown, to: T): T {
  const ref = originOf(origins, from);
  if (origins && ref !== undefined) noteOrigin(origins, to, ref);
  return to;
}
