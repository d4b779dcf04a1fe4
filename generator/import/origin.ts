// Which OpenAPI component a converted subschema was inlined from, kept beside the schema (never in
// it): the `$defs` hoisting (hoist.ts) names a repeated subschema after its component.
const origins = new WeakMap<object, string>();

/** Records that `node` is the conversion of the component `ref` points at. */
export function noteOrigin(node: unknown, ref: string): void {
  if (node && typeof node === "object") origins.set(node, ref);
}

/** The `$ref` a converted subschema was inlined from, if any. */
export function originOf(node: unknown): string | undefined {
  return node && typeof node === "object" ? origins.get(node) : undefined;
}

/** A copy (`to`) of a converted subschema keeps the origin of `from`. */
export function carryOrigin<T>(from: unknown, to: T): T {
  const ref = originOf(from);
  if (ref !== undefined) noteOrigin(to, ref);
  return to;
}
