// One import's working state: what it has computed so far from its one document, created when the
// import starts (importer.ts) and passed down, so it goes with the import and no module keeps any.
import type { BaseUrl } from "./server-url.js";

export interface ImportRun {
  /** Cleaned texts by length and text (describe.ts): API documents repeat their texts. */
  texts: Map<string, string>;
  /** The base URLs read so far, by `servers` list (server-url.ts), shared by the operations. */
  baseUrls: WeakMap<object, BaseUrl>;
}

export function newImportRun(): ImportRun {
  return { texts: new Map(), baseUrls: new WeakMap() };
}
