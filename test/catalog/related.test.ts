// The related-words table of a catalog index (WordNet, built at generation time): a query word the
// API never uses finds the operations that use a word it stands for, and the table holds only the
// index's own terms. On a small index made here, not on the bench's phrasings.
import { describe, expect, it } from "vitest";
import { load } from "../../generator/load.js";
import { normalize } from "../../generator/normalize.js";
import { buildIndex } from "../../generator/catalog/index.js";
import { rank } from "../../templates/runtime/catalog/search.js";
import type { CatalogIndex } from "../../templates/runtime/catalog/types.js";

const tool = (name: string, description: string, method: string, path: string) => `
  - name: ${name}
    description: ${description} Use it when the user asks for that.
    annotations: { readOnlyHint: ${method === "GET"}, destructiveHint: ${method === "DELETE"}, idempotentHint: true, openWorldHint: true }
    input: { type: object, properties: { id: { type: integer, description: The record's id. } }, additionalProperties: false }
    http: { method: ${method}, baseUrl: https://records.example.invalid, path: "${path}" }
    output: { raw: true }`;

const SPEC = `server:
  name: records
  version: 0.1.0
  exposure: catalog
tools:${tool("move_record", "Move a record to another shelf.", "POST", "/records/move")}${tool("erase_record", "Remove a record for good.", "DELETE", "/records/erase")}${tool("show_shelf", "Show the records on a shelf.", "GET", "/shelf")}
`;

const index = (): CatalogIndex => buildIndex(normalize(load([{ path: "records.yaml", text: SPEC }], []))[0]!);
const top = (ix: CatalogIndex, q: string) => ix.ops[rank(ix, q, () => true)[0] ?? -1]?.[0];

describe("the related-words table", () => {
  it("lets a word the operations never use find the operation that uses its synonym", () => {
    const ix = index();
    // WordNet has "move" as a more general word for "transfer"; no operation says "transfer".
    expect(ix.postings.transfer).toBeUndefined();
    expect(top(ix, "transfer a record")).toBe("move_record");
    expect(top({ ...ix, related: {} }, "transfer a record")).not.toBe("move_record");
  });

  it("reads phrases: 'get rid of' stands for remove", () => {
    const ix = index();
    expect(top(ix, "get rid of a record")).toBe("erase_record");
    expect(top({ ...ix, related: {} }, "get rid of a record")).not.toBe("erase_record");
  });

  it("holds only terms of the index, and the same bytes on every build", () => {
    const ix = index();
    const targets = Object.values(ix.related!).flatMap((list) => list.filter((_, i) => i % 2 === 0));
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) expect(Object.keys(ix.postings)).toContain(t);
    expect(JSON.stringify(index())).toBe(JSON.stringify(ix));
  });
});
