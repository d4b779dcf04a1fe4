// The catalog index a generated server embeds (server.exposure: catalog), built by the generator;
// the definition that hands it in with the catalog tools is types.ts CatalogDef.

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
