// Where each JSON pointer of a parsed YAML document sits in its text, found when asked. A large
// spec has a hundred thousand nodes and a build asks for the places of a few of them (its
// diagnostics), so nothing is worked out ahead: each record is a view that walks the document
// along the pointer and remembers the answer. What a view answers is exactly what a record filled
// by one walk over every node would hold (load.ts's eager walk, kept for small included schemas):
// a value's place, or its key's when it has no value; a key's place; the source text of an
// unquoted value YAML read as a number, a boolean or null; and flow-mapping splits. Where two keys
// of one mapping give the same pointer segment (1 and "1"), the later one answers, as the later
// write of a walk would.
import { isMap, isNode, isPair, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair, type YAMLMap } from "yaml";
import type { Position } from "../model/spec.js";
import { escapePointer } from "./pointer.js";


/** The pointer segment a pair's key gives, as load.ts names it. */
export function keySegment(pair: Pair): string {
  const key = pair.key;
  return escapePointer(isScalar(key) ? (typeof key.value === "symbol" ? "<<" : String(key.value)) : "?");
}

/** A pair reached by a pointer, with its mapping and the pair before it there (for flow splits). */
interface Reached {
  pair: Pair;
  map: YAMLMap;
  previous: Pair | undefined;
}

/** A place a pointer leads to: a node, or a pair whose value is missing. */
type Found = { node: Node; via?: Reached } | { node: null; via: Reached };

/** Every place `segments` leads to from `node`, in document order (a walk would visit them in this order). */
function reach(node: unknown, segments: string[], from: number, via: Reached | undefined, out: Found[]): void {
  if (from === segments.length) {
    // (An object that is no node, a pair, would answer nothing: none of the readings below is taken from it.)
    if (isNode(node)) out.push({ node, via });
    else if (node == null && via) out.push({ node: null, via });
    return;
  }
  const segment = segments[from]!;
  if (isMap(node)) {
    let previous: Pair | undefined;
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      if (keySegment(pair) === segment) {
        const here = { pair, map: node, previous };
        // A missing value is a place only at the pointer's end; nothing lies under it.
        if (pair.value) reach(pair.value, segments, from + 1, here, out);
        else if (from + 1 === segments.length) out.push({ node: null, via: here });
      }
      previous = pair;
    }
  } else if (isSeq(node)) {
    const i = Number(segment);
    if (String(i) === segment && i >= 0 && i < node.items.length) reach(node.items[i], segments, from + 1, undefined, out);
  }
}

/** A record computed per key on first read; a key written (load.ts's @file includes) answers what was written. */
function lazyRecord<T>(compute: (key: string) => T | undefined): Record<string, T> {
  const known = new Map<string, T | undefined>();
  const target: Record<string, T> = {};
  return new Proxy(target, {
    get(_, key) {
      if (typeof key !== "string") return undefined;
      if (!known.has(key)) known.set(key, compute(key));
      return known.get(key);
    },
    set(_, key, value: T) {
      known.set(String(key), value);
      return true;
    },
    has(_, key) {
      return typeof key === "string" && (known.has(key) ? known.get(key) : compute(key)) !== undefined;
    },
  });
}

export interface LazyReadings {
  positions: Record<string, Position>;
  keyPositions: Record<string, Position>;
  unquoted: Record<string, string>;
  flowSplits: Record<string, string>;
}

export function lazyReadings(document: Document, lineCounter: LineCounter, text: string): LazyReadings {
  const at = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const source = (n: Node) => (n.range ? text.slice(n.range[0], n.range[1]) : "");
  const places = (pointer: string): Found[] => {
    const out: Found[] = [];
    if (pointer === "") reach(document.contents, [], 0, undefined, out);
    else if (pointer.startsWith("/")) reach(document.contents, pointer.slice(1).split("/"), 0, undefined, out);
    return out;
  };
  /** The last of the places that gives an answer: the walk's last write wins. */
  const last = <T>(pointer: string, answer: (f: Found) => T | undefined): T | undefined => {
    let result: T | undefined;
    for (const f of places(pointer)) result = answer(f) ?? result;
    return result;
  };
  const keyAt = (via: Reached | undefined): Position | undefined => {
    const key = via?.pair.key;
    return isNode(key) && key.range ? at(key.range[0]) : undefined;
  };
  return {
    positions: lazyRecord((p) => last(p, (f) => (f.node ? (f.node.range ? at(f.node.range[0]) : undefined) : keyAt(f.via)))),
    keyPositions: lazyRecord((p) => last(p, (f) => keyAt(f.via))),
    unquoted: lazyRecord((p) => last(p, (f) => (f.node && isScalar(f.node) && f.node.type === "PLAIN" && typeof f.node.value !== "string" ? source(f.node) : undefined))),
    flowSplits: lazyRecord((p) =>
      last(p, (f) => {
        // In a flow mapping `{ description: one, two }` the comma ends the value and `two` becomes a key.
        const via = f.via;
        if (f.node !== null || !via?.map.flow || !via.previous) return undefined;
        const key = via.pair.key;
        const before = via.previous.value;
        if (!isScalar(key) || key.type !== "PLAIN" || !isScalar(before) || before.type !== "PLAIN") return undefined;
        const previousKey = isScalar(via.previous.key) ? String(via.previous.key.value) : "";
        return `${previousKey}: ${JSON.stringify(`${source(before)}, ${source(key)}`)}`;
      }),
    ),
  };
}
