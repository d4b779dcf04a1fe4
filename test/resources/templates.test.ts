// Resource templates and completion on the raw wire (no SDK), from test/fixtures/resources/templates.yaml
// generated into a temp folder and run as a real process, over stdio and Streamable HTTP in both eras:
// the capabilities declared (exactly what is served, the same in both eras), reads through exec tools
// (a reserved expansion keeps its slashes, a typed integer, a failing command), and completion of a
// template variable from a tool's output lines and of a prompt argument from a fixed list.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { ERAS, httpWire, stdioWire, type Era, type Wire } from "./wire.js";

let bundle: string;
let http: HttpServer;
beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), "kervan-templates-"));
  const r = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", "test/fixtures/resources/templates.yaml", "--out", out], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`kervan gen failed:\n${r.stdout}${r.stderr}`);
  bundle = join(out, "template-shelf", "server.mjs");
  http = await startHttpServer(bundle, ["--host", "127.0.0.1"]);
}, 120_000);
afterAll(async () => {
  await http?.stop();
});

const NOTE = "notes://{shelf}/{+name}";
const opens: [string, (era: Era) => Wire][] = [
  ["stdio", (era) => stdioWire(bundle, era)],
  ["http", (era) => httpWire(http.url, era)],
];

for (const [transport, open] of opens) {
  for (const era of ERAS) {
    describe(`resource templates on the raw wire over ${transport}, ${era}`, () => {
      let w: Wire;
      beforeAll(() => {
        w = open(era);
      });
      afterAll(() => w.close());

      it("declares tools, prompts, resources and completions, nothing more", async () => {
        expect(await w.capabilities()).toEqual({ tools: {}, prompts: {}, resources: {}, completions: {} });
      });

      it("lists the templates sorted by URI template, and no static resources", async () => {
        const list = (await w.send("resources/templates/list")).result!;
        expect(list.resourceTemplates).toEqual([
          { uriTemplate: "broken://{id}", name: "broken", mimeType: "text/plain" },
          { uriTemplate: NOTE, name: "note", title: "A note", description: "One note by shelf and name.", mimeType: "text/plain" },
          { uriTemplate: "pages://{page}", name: "page", mimeType: "text/plain" },
        ]);
        expect((await w.send("resources/list")).result!.resources).toEqual([]);
      });

      it("reads through the tool: a reserved expansion keeps its slashes, an integer variable is typed", async () => {
        const note = await w.send("resources/read", { uri: "notes://drafts/a/b" });
        expect(note.result!.contents).toEqual([{ uri: "notes://drafts/a/b", mimeType: "text/plain", text: "note a/b on drafts" }]);
        // Non-ASCII text comes percent-encoded as UTF-8 and is decoded for the tool.
        const accented = await w.send("resources/read", { uri: "notes://drafts/caf%C3%A9/men%C3%BC" });
        expect(accented.result!.contents).toEqual([{ uri: "notes://drafts/caf%C3%A9/men%C3%BC", mimeType: "text/plain", text: "note café/menü on drafts" }]);
        const page = await w.send("resources/read", { uri: "pages://21" });
        expect(page.result!.contents).toEqual([{ uri: "pages://21", mimeType: "text/plain", text: "page 21" }]);
        if (era === "2026-07-28") expect(page.result).toMatchObject({ cacheScope: "private", ttlMs: 0 });
      });

      it("a URI no template matches, or a variable of the wrong type, is the era's not found", async () => {
        const code = era === "2026-07-28" ? -32602 : -32002;
        for (const uri of ["pages://x", "nowhere://a", "notes://drafts"]) {
          const res = await w.send("resources/read", { uri });
          expect(res.error, uri).toMatchObject({ code, message: "Resource not found", data: { uri } });
        }
      });

      it("a failing command is a read error with its reason, and the server keeps serving", async () => {
        const res = await w.send("resources/read", { uri: "broken://zz" });
        expect(res.error).toMatchObject({ code: -32603, message: "Resource read failed", data: { uri: "broken://zz", reason: expect.stringContaining("/no/such/zz") } });
        expect((await w.send("resources/read", { uri: "pages://2" })).result!.contents[0].text).toBe("page 2");
      });

      it("completes a template variable from a tool's output lines, by prefix", async () => {
        const got = await w.send("completion/complete", { ref: { type: "ref/resource", uri: NOTE }, argument: { name: "name", value: "alp" } });
        expect(got.result!.completion).toEqual({ values: ["alpha", "alpine"], total: 2, hasMore: false });
        const none = await w.send("completion/complete", { ref: { type: "ref/resource", uri: NOTE }, argument: { name: "shelf", value: "d" } });
        expect(none.result!.completion).toEqual({ values: [], total: 0, hasMore: false });
      });

      it("completes a prompt argument from its fixed list; an unknown template is invalid params", async () => {
        const got = await w.send("completion/complete", { ref: { type: "ref/prompt", name: "summarize" }, argument: { name: "style", value: "b" } });
        expect(got.result!.completion).toEqual({ values: ["brief", "bullet points"], total: 2, hasMore: false });
        const bad = await w.send("completion/complete", { ref: { type: "ref/resource", uri: "nope://{x}" }, argument: { name: "x", value: "" } });
        expect(bad.error).toMatchObject({ code: -32602, message: expect.stringContaining("nope://{x}") });
      });
    });
  }
}
