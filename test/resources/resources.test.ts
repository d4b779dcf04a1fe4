// Static resources served by real generated servers as child processes, on the raw wire (no SDK):
// resources/list, resources/read (text and base64 blob), the era's resource-not-found error,
// resources/templates/list (empty) and cursor pagination, over stdio and Streamable HTTP in both
// eras; then the official client (SDK v2) lists and reads them in each version mode.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { META, spawnRaw, type RawServer } from "../runtime/raw.js";
import { rawPost } from "../helpers/raw-http.js";
import { connectHttp, connectStdio, startHttpServer, VERSION_MODES, type HttpServer } from "../helpers/client.js";

type Era = "2026-07-28" | "2025-11-25";
type Msg = { id?: unknown; result?: Record<string, any>; error?: { code: number; message: string; data?: any } };
/** Sends one request and returns its answer; `close` ends the transport. */
interface Wire {
  send(method: string, params?: Record<string, unknown>): Promise<Msg>;
  close(): Promise<void>;
}

function gen(spec: string, out: string, server: string): string {
  const r = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", spec, "--out", out], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`kervan gen failed:\n${r.stdout}${r.stderr}`);
  return join(out, server, "server.mjs");
}

/** A spec of 205 inline resources: three pages of resources/list. */
function pagedSpec(dir: string): string {
  const lines = ["server: { name: resource-pages, version: 0.1.0 }", "tools:", "  - { name: check_json, description: Check that a JSON value is valid against a schema. Use it before sending data on., validate_json: {} }", "resources:"];
  for (let i = 0; i < 205; i++) lines.push(`  - { uri: "page://item/${String(i).padStart(3, "0")}", name: item-${i}, mimeType: text/plain, text: "item ${i}" }`);
  writeFileSync(join(dir, "pages.yaml"), lines.join("\n") + "\n");
  return join(dir, "pages.yaml");
}

let shelf: string;
let pages: string;
const http = new Map<string, HttpServer>();

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), "kervan-resources-"));
  shelf = gen("test/fixtures/resources/resources.yaml", out, "resource-shelf");
  pages = gen(pagedSpec(out), out, "resource-pages");
  for (const bundle of [shelf, pages]) http.set(bundle, await startHttpServer(bundle, ["--host", "127.0.0.1"]));
}, 120_000);
afterAll(async () => {
  for (const s of http.values()) await s.stop();
});

function stdioWire(bundle: string, era: Era): Wire {
  const s: RawServer = spawnRaw(bundle);
  let id = 0;
  let ready: Promise<unknown> = Promise.resolve();
  if (era === "2025-11-25") {
    s.send(JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: era, capabilities: {}, clientInfo: { name: "t", version: "0" } } }));
    ready = s.next().then(() => s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })));
  }
  return {
    async send(method, params = {}) {
      await ready;
      s.send(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: era === "2026-07-28" ? { ...params, _meta: META } : params }));
      return (await s.next()) as Msg;
    },
    async close() {
      s.proc.stdin!.end();
      await s.exited;
    },
  };
}

function httpWire(bundle: string, era: Era): Wire {
  const url = http.get(bundle)!.url;
  let id = 0;
  return {
    async send(method, params = {}) {
      const headers: Record<string, string> = { "mcp-protocol-version": era };
      if (era === "2026-07-28") {
        headers["mcp-method"] = method;
        if (method === "resources/read" && typeof params.uri === "string") headers["mcp-name"] = params.uri;
      }
      const body = { jsonrpc: "2.0", id: ++id, method, params: era === "2026-07-28" ? { ...params, _meta: META } : params };
      const res = await rawPost(url, body, headers);
      const text = res.body.startsWith("event:") || res.body.includes("\ndata: ") ? res.body.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6) : res.body;
      return JSON.parse(text) as Msg;
    },
    async close() {},
  };
}

const wires: [string, (bundle: string, era: Era) => Wire][] = [
  ["stdio", stdioWire],
  ["http", httpWire],
];
const ERAS: Era[] = ["2026-07-28", "2025-11-25"];
const notes = readFileSync("test/fixtures/resources/notes.md");
const pixel = readFileSync("test/fixtures/resources/pixel.png");

for (const [transport, open] of wires) {
  for (const era of ERAS) {
    describe(`static resources on the raw wire over ${transport}, ${era}`, () => {
      it("declares resources (subscribe in 2025-11-25 only, no listChanged) and lists them sorted by uri with type and size", async () => {
        const w = open(shelf, era);
        try {
          const caps = era === "2026-07-28" ? (await w.send("server/discover")).result!.capabilities : (await w.send("initialize", { protocolVersion: era, capabilities: {}, clientInfo: { name: "t", version: "0" } })).result!.capabilities;
          expect(caps).toEqual({ tools: {}, resources: era === "2025-11-25" ? { subscribe: true } : {} });
          const list = (await w.send("resources/list")).result!;
          expect(list.resources).toEqual([
            { uri: "config://defaults", name: "defaults", description: "Default settings, inline.", mimeType: "application/json", size: 14 },
            { uri: "docs://notes", name: "notes", title: "Release notes", description: "The release notes, read from notes.md.", mimeType: "text/markdown", size: notes.length },
            { uri: "docs://pixel.png", name: "pixel", mimeType: "image/png", size: pixel.length },
          ]);
          expect(list.nextCursor).toBeUndefined();
          if (era === "2026-07-28") expect(list).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "public" });
          else expect(list.resultType).toBeUndefined();
        } finally {
          await w.close();
        }
      });

      it("reads a text file as text, a binary file as a base64 blob, inline text as text", async () => {
        const w = open(shelf, era);
        try {
          expect((await w.send("resources/read", { uri: "docs://notes" })).result!.contents).toEqual([{ uri: "docs://notes", mimeType: "text/markdown", text: notes.toString("utf8") }]);
          expect((await w.send("resources/read", { uri: "docs://pixel.png" })).result!.contents).toEqual([{ uri: "docs://pixel.png", mimeType: "image/png", blob: pixel.toString("base64") }]);
          const inline = (await w.send("resources/read", { uri: "config://defaults" })).result!;
          expect(inline.contents).toEqual([{ uri: "config://defaults", mimeType: "application/json", text: '{"retries": 3}' }]);
          if (era === "2026-07-28") expect(inline).toMatchObject({ resultType: "complete", cacheScope: "public" });
        } finally {
          await w.close();
        }
      });

      it("answers an unknown uri with the era's resource-not-found error, the uri in its data", async () => {
        const w = open(shelf, era);
        try {
          const got = await w.send("resources/read", { uri: "docs://nowhere" });
          expect(got.result).toBeUndefined();
          expect(got.error).toEqual({ code: era === "2026-07-28" ? -32602 : -32002, message: "Resource not found", data: { uri: "docs://nowhere" } });
          expect((await w.send("resources/read", { uri: 7 })).error).toMatchObject({ code: -32602, message: "Invalid params: uri must be a string" });
        } finally {
          await w.close();
        }
      });

      it("lists no resource templates; subscriptions accepted in 2025-11-25 only (static resources never change)", async () => {
        const w = open(shelf, era);
        try {
          expect((await w.send("resources/templates/list")).result!.resourceTemplates).toEqual([]);
          const sub = await w.send("resources/subscribe", { uri: "docs://notes" });
          if (era === "2025-11-25") expect(sub).toMatchObject({ result: {} });
          else expect(sub.error).toMatchObject({ code: -32601 });
        } finally {
          await w.close();
        }
      });

      it("pages a long list with opaque cursors and refuses a cursor it did not issue", async () => {
        const w = open(pages, era);
        try {
          const seen: string[] = [];
          const sizes: number[] = [];
          let cursor: string | undefined;
          do {
            const page = (await w.send("resources/list", cursor ? { cursor } : {})).result!;
            sizes.push(page.resources.length);
            seen.push(...page.resources.map((r: { uri: string }) => r.uri));
            cursor = page.nextCursor;
          } while (cursor);
          expect(sizes).toEqual([100, 100, 5]);
          expect(seen).toEqual(Array.from({ length: 205 }, (_, i) => `page://item/${String(i).padStart(3, "0")}`));
          for (const bad of ["not-a-cursor", "MTAw1", 42]) expect((await w.send("resources/list", { cursor: bad })).error, String(bad)).toMatchObject({ code: -32602, message: "Invalid cursor" });
          expect((await w.send("resources/read", { uri: "page://item/204" })).result!.contents).toEqual([{ uri: "page://item/204", mimeType: "text/plain", text: "item 204" }]);
        } finally {
          await w.close();
        }
      });
    });
  }
}

describe("a server without resources", () => {
  it("answers resources/* with -32601 in both eras", async () => {
    for (const era of ERAS) {
      const w = stdioWire("out/validator/server.mjs", era);
      try {
        for (const method of ["resources/list", "resources/read", "resources/templates/list"]) expect((await w.send(method, { uri: "docs://x" })).error, `${era} ${method}`).toMatchObject({ code: -32601 });
      } finally {
        await w.close();
      }
    }
  });
});

for (const [transport, connect] of [
  ["stdio", (mode: (typeof VERSION_MODES)[number]) => connectStdio(shelf, mode)],
  ["http", (mode: (typeof VERSION_MODES)[number]) => connectHttp(http.get(shelf)!.url, mode)],
] as const) {
  describe(`the official client over ${transport}`, () => {
    for (const mode of VERSION_MODES) {
      it(`lists and reads static resources (${mode})`, async () => {
        const c = await connect(mode);
        try {
          expect(c.client.getServerCapabilities()?.resources).toEqual(mode === "2025-11-25" ? { subscribe: true } : {});
          const { resources } = await c.client.listResources();
          expect(resources.map((r) => r.uri)).toEqual(["config://defaults", "docs://notes", "docs://pixel.png"]);
          const read = await c.client.readResource({ uri: "docs://pixel.png" });
          expect(read.contents).toEqual([{ uri: "docs://pixel.png", mimeType: "image/png", blob: pixel.toString("base64") }]);
          const text = await c.client.readResource({ uri: "docs://notes" });
          expect(text.contents[0]).toMatchObject({ text: notes.toString("utf8") });
          // The client takes either era's code (-32002, -32602) as its ResourceNotFoundError; the raw tests above check the codes.
          const missing = await c.client.readResource({ uri: "docs://nowhere" }).then(() => undefined, (e: Error) => e);
          expect(missing?.constructor.name).toBe("ResourceNotFoundError");
          expect(missing?.message).toContain("Resource not found");
        } finally {
          await c.close();
        }
      });
    }
  });
}
