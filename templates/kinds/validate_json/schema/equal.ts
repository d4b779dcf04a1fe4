// JSON equality for const, enum and uniqueItems: 1 and 1.0 are equal, key order does not matter.

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** A string equal for equal JSON values (sorted keys), so uniqueness is one pass over a Map. */
function canonical(v: unknown): string {
  if (typeof v !== "object" || v === null) return typeof v === "string" ? JSON.stringify(v) : String(v);
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  const keys = Object.keys(v).sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical((v as Record<string, unknown>)[k])).join(",") + "}";
}

/** Indices of the first two equal items, or null when all are distinct. */
export function firstDuplicate(items: unknown[]): [number, number] | null {
  // Primitives are their own key (Map semantics keep 1, true and "1" apart); containers use text.
  const prims = new Map<unknown, number>();
  const texts = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    const container = typeof v === "object" && v !== null;
    const key = container ? canonical(v) : v;
    const prev = container ? texts.get(key as string) : prims.get(key);
    if (prev !== undefined) return [prev, i];
    if (container) texts.set(key as string, i);
    else prims.set(key, i);
  }
  return null;
}

/** Membership test for enum: a Set for primitives, deepEqual for containers. */
export function enumMatcher(values: unknown[]): (v: unknown) => boolean {
  const prims = new Set(values.filter((x) => typeof x !== "object" || x === null));
  const objs = values.filter((x) => typeof x === "object" && x !== null);
  if (objs.length === 0) return (v) => prims.has(v);
  return (v) => (typeof v === "object" && v !== null ? objs.some((o) => deepEqual(o, v)) : prims.has(v));
}
