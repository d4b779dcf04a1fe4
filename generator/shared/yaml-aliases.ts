// YAML aliases, bounded: a document may use as many aliases as it likes, but together they may add
// at most ALIAS_EXPANSION_LIMIT nodes to it once expanded (an alias bomb of nine nested lists of
// nine adds millions), and an alias may not refer to a node that contains it (a cycle). The
// expanded data is then copied so no two places in the spec share one object.
import { isAlias, isCollection, isPair, type Alias, type Document } from "yaml";
import { isObject } from "./object.js";

export const ALIAS_EXPANSION_LIMIT = 100_000;

export interface AliasProblem {
  message: string;
  /** Offset in the text of the alias at fault. */
  offset: number;
}

/** Whether the document uses aliases at all, and what is wrong with them if anything. */
export function inspectAliases(document: Document): { any: boolean; problem?: AliasProblem } {
  const sizes = new Map<unknown, number>();
  const open = new Set<unknown>();
  let first: Alias | undefined;
  let plain = 0;
  let problem: AliasProblem | undefined;
  // Expanded size of a node: itself plus its children, an alias counting as what it refers to.
  const size = (node: unknown, counting: boolean): number => {
    if (problem) return 0;
    if (isAlias(node)) {
      if (counting) plain += 1;
      first ??= node;
      const target = node.resolve(document);
      if (!target) {
        problem = { message: `YAML alias *${node.source} has no anchor &${node.source} before it`, offset: node.range?.[0] ?? 0 };
        return 0;
      }
      if (open.has(target)) {
        problem = { message: `YAML alias *${node.source} refers to a node that contains it`, offset: node.range?.[0] ?? 0 };
        return 0;
      }
      return sizes.get(target) ?? size(target, false);
    }
    if (!node || typeof node !== "object") return 0;
    const known = sizes.get(node);
    if (known !== undefined && !counting) return known;
    open.add(node);
    let total = 1;
    if (counting) plain += 1;
    if (isPair(node)) total += size(node.key, counting) + size(node.value, counting);
    else if (isCollection(node)) for (const item of node.items) total += size(item, counting);
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  const expanded = size(document.contents, true);
  const any = first !== undefined;
  if (problem || !first || expanded - plain <= ALIAS_EXPANSION_LIMIT) return { any, problem };
  const added = expanded - plain;
  const amount = added < 1e12 ? String(added) : "more than 10^12";
  return { any, problem: { message: `YAML aliases expand this document by ${amount} nodes; the limit is ${ALIAS_EXPANSION_LIMIT}`, offset: first.range?.[0] ?? 0 } };
}

/** A deep copy of parsed YAML data in which no object is shared; keys are copied as own data properties. */
export function unshare(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unshare);
  if (!isObject<unknown>(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, { value: unshare(value[key]), writable: true, enumerable: true, configurable: true });
  }
  return copy;
}
