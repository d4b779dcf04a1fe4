// Optional output fields: an http tool's value loses the `null` members its output schema does not
// allow for properties that are not required (a JMESPath select yields null for a missing key, and
// APIs send `"author": null` for fields their description types as plain strings), so such a
// value passes its own output schema. A null the schema allows stays, and a required property's
// null is still an error. Real generated server, official MCP client, real upstream on loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "../../generator/pipeline.js";
import { startUpstream, type Upstream } from "../kinds/http/upstream.js";
import { connectStdio, type Connected } from "../helpers/client.js";

const SPEC = `server: { name: books, version: 0.1.0 }
tools:
  - name: get_book
    description: Get one book by id from the catalogue. Use it to read a book's title and author.
    input: { type: object, properties: { id: { type: integer } }, required: [id], additionalProperties: false }
    http: { method: GET, baseUrl: "https://books.example.com", baseUrlEnv: BOOKS_URL, path: "/books/{{input.id}}" }
    output:
      select: "{title: title, author: author, note: note, series: series}"
      schema:
        type: object
        properties:
          title: { type: string }
          author: { type: string }
          note: { type: [string, "null"] }
          series: { type: object, properties: { name: { type: string }, position: { type: integer } }, required: [name] }
        required: [title]
  - name: list_books
    description: List the books of the catalogue. Use it to find a book's id before reading it.
    input: { type: object, properties: {}, additionalProperties: false }
    http: { method: GET, baseUrl: "https://books.example.com", baseUrlEnv: BOOKS_URL, path: /books }
    output:
      select: "{items: @}"
      schema:
        type: object
        properties:
          items: { type: array, items: { type: object, properties: { title: { type: string }, author: { type: string } }, required: [title] } }
`;

const BOOKS: Record<string, unknown> = {
  "/books/1": { title: "Kept", author: "A. Writer", note: null },
  "/books/2": { title: "No author" },
  "/books/3": { title: "Series without position", series: { name: "Trilogy", position: null } },
  "/books/4": { title: null, author: "Someone" },
  "/books": [{ title: "One", author: null }, { title: "Two", author: "B" }],
};

let up: Upstream;
let conn: Connected;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "kervan-optional-output-"));
  const spec = join(dir, "books.yaml");
  writeFileSync(spec, SPEC);
  const gen = await generate([{ path: spec, text: SPEC }], { outRoot: join(dir, "out"), check: false, pruneServers: false });
  if (!gen.report) throw new Error(JSON.stringify(gen.diagnostics.filter((d) => d.severity === "error")));
  up = await startUpstream();
  up.route = (req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(BOOKS[req.target] ?? {}));
  };
  conn = await connectStdio(join(dir, "out", "books", "server.mjs"), "2026-07-28", [], { BOOKS_URL: up.origin });
}, 180_000);

afterAll(async () => {
  await conn?.close();
  await up?.close();
});

const call = (name: string, args: Record<string, unknown>) => conn.client.callTool({ name, arguments: args }) as Promise<{ isError?: boolean; structuredContent?: unknown; content: Array<{ text?: string }> }>;

describe("optional output fields", () => {
  it("a missing optional key (null from the select) is left out; an allowed null stays", async () => {
    const kept = await call("get_book", { id: 1 });
    expect(kept.isError).toBeFalsy();
    expect(kept.structuredContent).toEqual({ title: "Kept", author: "A. Writer", note: null });
    const missing = await call("get_book", { id: 2 });
    expect(missing.content[0].text).not.toMatch(/failed its own output schema/);
    expect(missing.isError).toBeFalsy();
    expect(missing.structuredContent).toEqual({ title: "No author", note: null });
  });

  it("nested objects and array items lose their disallowed optional nulls too", async () => {
    const nested = await call("get_book", { id: 3 });
    expect(nested.isError).toBeFalsy();
    expect(nested.structuredContent).toEqual({ title: "Series without position", note: null, series: { name: "Trilogy" } });
    const listed = await call("list_books", {});
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent).toEqual({ items: [{ title: "One" }, { title: "Two", author: "B" }] });
  });

  it("a required property's null is still an error that says so", async () => {
    const r = await call("get_book", { id: 4 });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/failed its own output schema.*\/title/s);
  });
});
