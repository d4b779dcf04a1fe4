// The catalog a generated server embeds (server.exposure: catalog), built by the generator.
import type { catalogTools } from "./tools.js";
import type { serveCatalog } from "./serve.js";

/** One operation as search results show it: its name, a one-line summary, its required inputs with types. */
export type CatalogEntry = [name: string, summary: string, signature: string];

export interface CatalogIndex {
  /** Every operation reachable through the catalog, in name order. */
  ops: CatalogEntry[];
  /** Term -> flat [operation index, weight in thousandths, ...], operation indexes ascending. */
  postings: Record<string, number[]>;
  /**
   * A word or phrase (its words' stems, space-separated) -> flat [term, weight in thousandths, ...]:
   * the index terms it can stand for (WordNet, at generation time), best first. Absent: none.
   */
  related?: Record<string, (string | number)[]>;
}

export interface CatalogDef {
  index: CatalogIndex;
  /** Tools listed in tools/list beside the catalog tools (`expose: always`), sorted. */
  always: string[];
  /** The catalog tools' cap on text output (the server's maxOutputChars). */
  maxOutputChars: number;
  /** The catalog tools and their serving (@kervan/catalog), handed in so that flat servers never bundle them. */
  tools: typeof catalogTools;
  serve: typeof serveCatalog;
  /** server.exposure: code — the program limits and each operation's TypeScript declaration. */
  code?: import("../codemode/serve.js").CodeDef;
}
