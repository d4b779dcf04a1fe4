// One import's working state: what it has computed so far from its one document, created when the
// import starts (importer.ts) and passed down, so it goes with the import and no module keeps any.
import type { BaseUrl } from "./server-url.js";
import type { Origins } from "./origin.js";
import type { Json } from "../../templates/runtime/types.js";

export interface ImportRun {
  /** The listing's lean texts (lean.ts, output.ts): on unless the import keeps the full text (`--full-text`). */
  lean: boolean;
  /** Cleaned texts by length and text (describe.ts): API documents repeat their texts. */
  texts: Map<string, string>;
  /** The base URLs read so far, by `servers` list (server-url.ts), shared by the operations. */
  baseUrls: WeakMap<object, BaseUrl>;
  /** Targets of the document's `$ref`s found so far (refs.ts): a shared component is looked up once per use. */
  found: Map<string, unknown>;
  /** Inlined references' conversions kept for reuse, by mode, depth and reference (schema.ts). */
  inlined: Map<string, Inlined>;
  /** The component each converted subschema came from (origin.ts), for the `$defs` hoisting. */
  origins: Origins;
}

/**
 * An inlined reference's conversion at a given depth, kept for reuse: its value, its node count,
 * and the references met inside it (schema.ts reuses it only where none of them is on the stack).
 */
export interface Inlined {
  value: Json;
  nodes: number;
  refs: Set<string>;
}

export function newImportRun(lean = true): ImportRun {
  return { lean, texts: new Map(), baseUrls: new WeakMap(), found: new Map(), inlined: new Map(), origins: new WeakMap() };
}
