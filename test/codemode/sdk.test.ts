// The official MCP client runs a multi-step program against a server imported from an OpenAPI
// document (kervan import, then exposure: code) and a loopback stub of that API, over stdio and
// Streamable HTTP, in both protocol eras.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectHttp, connectStdio, startHttpServer, type Connected, type HttpServer } from "../helpers/client.js";
import { startUpstream, type Upstream } from "../kinds/http/upstream.js";

const ERAS = ["2026-07-28", "2025-11-25"] as const;
const kervan = (args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8" });

let up: Upstream;
let bundle: string;
let http: HttpServer;

/** An OpenAPI document of a small shelf of books, served by the loopback stub. */
function openapi(origin: string) {
  const book = { type: "object", properties: { id: { type: "integer" }, title: { type: "string" }, pages: { type: "integer" } }, required: ["id"] };
  return {
    openapi: "3.1.0",
    info: { title: "Shelf", version: "1" },
    servers: [{ url: origin }],
    paths: {
      "/books": { get: { operationId: "listBooks", summary: "List the books on the shelf", responses: { 200: { description: "ok", content: { "application/json": { schema: { type: "array", items: book } } } } } } },
      "/books/{id}": {
        get: {
          operationId: "getBook",
          summary: "Get one book by its id",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } }],
          responses: { 200: { description: "ok", content: { "application/json": { schema: book } } } },
        },
      },
    },
  };
}

beforeAll(async () => {
  up = await startUpstream();
  up.route = (req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.target === "/books") return void res.end(JSON.stringify([{ id: 1 }, { id: 2 }, { id: 3 }]));
    const id = Number(/\/books\/(\d+)/.exec(req.target)?.[1] ?? 0);
    res.end(JSON.stringify({ id, title: `book ${id}`, pages: id * 100 }));
  };
  const dir = mkdtempSync(join(tmpdir(), "kervan-codemode-sdk-"));
  writeFileSync(join(dir, "shelf.json"), JSON.stringify(openapi(up.origin)));
  const spec = join(dir, "shelf.yaml");
  const imported = kervan(["import", join(dir, "shelf.json"), "--name", "shelf", "--out", spec, "--exposure", "catalog"]);
  if (imported.status !== 0) throw new Error(`kervan import failed:\n${imported.stderr}`);
  writeFileSync(spec, readFileSync(spec, "utf8").replace("exposure: catalog", "exposure: code"));
  const gen = kervan(["gen", spec, "--out", join(dir, "out")]);
  if (gen.status !== 0) throw new Error(`kervan gen failed:\n${gen.stderr}`);
  bundle = join(dir, "out/shelf/server.mjs");
  http = await startHttpServer(bundle);
}, 120_000);
afterAll(async () => {
  await http?.stop();
  await up?.close();
});

const PROGRAM = `const { items } = await api.list_books({});
  const full = [];
  for (const b of items) full.push(await api.get_book({ id: b.id }));
  console.log("read", full.length);
  return { titles: full.map((b) => b.title), pages: full.reduce((n, b) => n + b.pages, 0) };`;

async function check(conn: Connected) {
  try {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name)).toContain("execute");
    up.seen.length = 0;
    const r = (await conn.client.callTool({ name: "execute", arguments: { code: PROGRAM } })) as { content: { text: string }[]; isError?: boolean };
    expect(r.isError, r.content[0].text).not.toBe(true);
    expect(JSON.parse(r.content[0].text)).toEqual({ titles: ["book 1", "book 2", "book 3"], pages: 600 });
    expect(r.content.map((c) => c.text).join("\n")).toContain("read 3");
    expect(up.seen.map((s) => `${s.method} ${s.target}`)).toEqual(["GET /books", "GET /books/1", "GET /books/2", "GET /books/3"]);
  } finally {
    await conn.close();
  }
}

describe("the official client runs a multi-step program", () => {
  for (const era of ERAS) {
    it(`over stdio, ${era}`, async () => check(await connectStdio(bundle, era)));
    it(`over Streamable HTTP, ${era}`, async () => check(await connectHttp(http.url, era)));
  }
});
