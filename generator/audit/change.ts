// One entry of a changelog: where (a tool or the server), what (a path like the listing's
// "Input schema / properties / path / type"), how, and why it breaks clients, if it does.
import type { Json } from "../../templates/runtime/types.js";

export interface Change {
  /** The tool it concerns; undefined for server-wide changes. */
  tool?: string;
  path: string[];
  change: "added" | "removed" | "changed";
  old?: Json;
  new?: Json;
  /** Why this breaks clients or widens what the server can do; undefined when it does not. */
  breaking?: string;
}

export interface Changelog {
  server: string;
  from: string;
  to: string;
  changes: Change[];
}

export const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** Two lists' entries paired by key, in key order: [key, before, after], either side missing when it has none. */
export function pairByKey<T>(a: readonly T[] | undefined, b: readonly T[] | undefined, key: (t: T) => string): [string, T | undefined, T | undefined][] {
  const [ma, mb] = [new Map((a ?? []).map((t) => [key(t), t])), new Map((b ?? []).map((t) => [key(t), t]))];
  return [...new Set([...ma.keys(), ...mb.keys()])].sort().map((k) => [k, ma.get(k), mb.get(k)]);
}
