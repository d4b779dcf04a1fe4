// Same-document JSON pointers into the bundled document: after bundling every `$ref` is local
// (`#/...`), so following one is a pointer lookup. A pointer that finds nothing is an OperationSkip.
import { isDoc, type Doc } from "./read.js";
import { unescapePointer as unescapeSegment } from "../shared/pointer.js";

/** An operation (or part of one) the importer leaves out, with the reason printed in the report. */
export class OperationSkip extends Error {}

/** A pointer segment as written in a `$ref` (URI-encoded, then RFC 6901). */
export function unescapePointer(segment: string): string {
  let s = segment;
  try {
    s = decodeURIComponent(s);
  } catch {
    // left as written
  }
  return unescapeSegment(s);
}

/**
 * The node `ref` points at in `doc`. `known` (the import run's `found`) keeps the targets found so
 * far: a shared component is looked up once per use, thousands of times.
 */
export function lookup(doc: Doc, ref: string, known: Map<string, unknown> = new Map()): unknown {
  if (known.has(ref)) return known.get(ref);
  const node = find(doc, ref);
  known.set(ref, node);
  return node;
}

function find(doc: Doc, ref: string): unknown {
  if (!ref.startsWith("#")) throw new OperationSkip(`$ref ${JSON.stringify(ref)} is not a reference inside the document`);
  if (ref === "#" || ref === "#/") return doc;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = unescapePointer(raw);
    const own = node && typeof node === "object" ? Object.getOwnPropertyDescriptor(node, key) : undefined;
    if (!own) throw new OperationSkip(`$ref ${JSON.stringify(ref)} points at nothing`);
    node = own.value;
  }
  return node;
}

const refOf = (node: unknown): string | undefined => (isDoc(node) && typeof node.$ref === "string" ? node.$ref : undefined);

/** Follows a chain of `$ref` objects (parameters, request bodies, responses) to the object itself. */
export function deref(doc: Doc, value: unknown, known?: Map<string, unknown>): unknown {
  let node = value;
  const seen = new Set<string>();
  for (let ref = refOf(node); ref !== undefined; ref = refOf(node)) {
    if (seen.has(ref)) throw new OperationSkip(`$ref ${JSON.stringify(ref)} refers to itself`);
    seen.add(ref);
    node = lookup(doc, ref, known);
  }
  return node;
}
