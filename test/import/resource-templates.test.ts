// `kervan import --resource-templates` (the real CLI): a GET whose every input is a required path
// parameter is also a resource template read by its tool; a parameterless GET, a GET with a query
// input and other methods stay tools only; the option is recorded for re-imports and refused with
// --exposure catalog. The imported spec is built and served, and a read reaches a real upstream on
// 127.0.0.1 with the URI's variable in the path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { generate } from "../../generator/pipeline.js";
import { startUpstream, type Upstream } from "../kinds/http/upstream.js";
import { META, spawnRaw, type RawServer } from "../runtime/raw.js";
import { FIXTURES } from "./cases.js";
import { kervan } from "./run-import.js";

const DOC = join(FIXTURES, "resources", "library.yaml");
const dir = mkdtempSync(join(tmpdir(), "kervan-import-templates-"));

function importTo(name: string, extra: string[]): { code: number; stderr: string; text: string } {
  const out = join(dir, `${name}.yaml`);
  const r = kervan(["import", DOC, "--out", out, ...extra]);
  return { code: r.code, stderr: r.stderr, text: r.code === 0 ? readFileSync(out, "utf8") : "" };
}

describe("kervan import --resource-templates", () => {
  it("maps only the GETs whose inputs are all path parameters, each read by its own tool", () => {
    const r = importTo("with", ["--resource-templates"]);
    expect(r.code, r.stderr).toBe(0);
    const spec = parse(r.text);
    expect(spec.tools.map((t: { name: string }) => t.name)).toEqual(["list_books", "add_book", "get_book", "delete_book", "get_note", "shelf_books"]);
    expect(spec.resourceTemplates).toEqual([
      { uriTemplate: "library://books/{bookId}", name: "get_book", title: "Get one book by its id", description: "Get one book by its id. Read through tool get_book.", mimeType: "application/json", tool: "get_book" },
      { uriTemplate: "library://notes/{name}.txt", name: "get_note", title: "A librarian's note as plain text", description: "A librarian's note as plain text. Read through tool get_note.", mimeType: "text/plain", tool: "get_note" },
    ]);
    expect(r.text).toMatch(/^# Recorded import options .*"resourceTemplates":true\}$/m);
    expect(r.text).toContain("\n# Resource templates (--resource-templates), each read by its GET tool: 2.\n");
  });

  it("maps nothing without the flag", () => {
    const r = importTo("without", []);
    expect(r.code, r.stderr).toBe(0);
    expect(parse(r.text).resourceTemplates).toBeUndefined();
    expect(r.text).not.toContain("resourceTemplates");
  });

  it("a re-import keeps the recorded flag", () => {
    const first = importTo("again", ["--resource-templates"]);
    expect(first.code, first.stderr).toBe(0);
    const second = importTo("again", []);
    expect(second.code, second.stderr).toBe(0);
    expect(parse(second.text).resourceTemplates).toHaveLength(2);
  });

  it("is refused with --exposure catalog, and nothing is written", () => {
    const r = importTo("catalog", ["--resource-templates", "--exposure", "catalog"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("--resource-templates");
  });
});

describe("an imported resource template, served", () => {
  let up: Upstream;
  let server: RawServer;
  let id = 0;
  const send = async (method: string, params: Record<string, unknown>): Promise<Record<string, any>> => {
    server.send(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: META } }));
    return server.next();
  };
  beforeAll(async () => {
    const r = importTo("served", ["--resource-templates"]);
    if (r.code !== 0) throw new Error(r.stderr);
    const spec = join(dir, "served.yaml");
    const gen = await generate([{ path: spec, text: readFileSync(spec, "utf8") }], { outRoot: join(dir, "out"), check: false, pruneServers: false });
    if (!gen.report) throw new Error(JSON.stringify(gen.diagnostics));
    up = await startUpstream();
    up.route = (req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ id: Number(req.target.split("/").at(-1)), title: "Ince Memed" }));
    };
    server = spawnRaw(join(dir, "out", "library", "server.mjs"), { LIBRARY_BASE_URL: `${up.origin}/v1` });
  }, 120_000);
  afterAll(async () => {
    server?.proc.kill();
    await up?.close();
  });

  it("reads library://books/7 as GET /v1/books/7 and returns the body", async () => {
    const reply = await send("resources/read", { uri: "library://books/7" });
    expect(reply.result.contents).toEqual([{ uri: "library://books/7", mimeType: "application/json", text: JSON.stringify({ id: 7, title: "Ince Memed" }) }]);
    expect(up.seen.map((s) => `${s.method} ${s.target}`)).toEqual(["GET /v1/books/7"]);
  });

  it("a variable the tool's input refuses sends nothing", async () => {
    up.seen.length = 0;
    const reply = await send("resources/read", { uri: "library://books/seven" });
    expect(reply.error).toMatchObject({ code: -32602, data: { uri: "library://books/seven" } });
    expect(up.seen).toHaveLength(0);
  });
});
