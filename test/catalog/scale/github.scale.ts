// Done-when of the catalog: `kervan import` of GitHub's whole REST description (the corpus copy) with
// --exposure catalog and no tag filter writes a spec that builds; its tools/list is at most 1,500 tokens
// by the build's own count; the official MCP client lists, searches, describes and calls an operation
// against a loopback stub of the API over stdio and Streamable HTTP, in both protocol eras.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { connectHttp, connectStdio, startHttpServer, type Connected, type HttpServer } from "../../helpers/client.js";
import { startUpstream, type Upstream } from "../../kinds/http/upstream.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-github-catalog-"));
const kervan = (...args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
let bundle: string;
let manifest: { listing: { total: number; encoding: string }; tools: { name: string }[] };
let up: Upstream;
let http: HttpServer;

beforeAll(async () => {
  const doc = join(dir, "api.github.com.json");
  writeFileSync(doc, gunzipSync(readFileSync("test/fixtures/openapi/corpus/api.github.com.json.gz")));
  const imported = kervan("import", doc, "--name", "github", "--exposure", "catalog", "--out", join(dir, "github.yaml"));
  if (imported.status !== 0) throw new Error(`import failed:\n${imported.stderr}`);
  const gen = kervan("gen", join(dir, "github.yaml"), "--out", join(dir, "out"));
  if (gen.status !== 0) throw new Error(`gen failed:\n${gen.stdout}${gen.stderr}`);
  bundle = join(dir, "out/github/server.mjs");
  manifest = JSON.parse(readFileSync(join(dir, "out/github/kervan.manifest.json"), "utf8"));
  up = await startUpstream();
  up.route = (req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ full_name: "octo/hello", via: `${req.method} ${req.target}` }));
  };
  http = await startHttpServer(bundle, [], { GITHUB_BASE_URL: up.origin });
});
afterAll(async () => {
  await http?.stop();
  await up?.close();
});

describe("GitHub's whole REST description as a catalog", () => {
  it("builds every operation, and lists at most 1,500 tokens", () => {
    expect(manifest.tools.length).toBeGreaterThan(1100);
    expect(manifest.listing.encoding).toBe("o200k_base");
    expect(manifest.listing.total).toBeLessThanOrEqual(1500);
  });

  const transports = ["stdio", "http"] as const;
  const eras = ["2026-07-28", "2025-11-25"] as const;
  for (const transport of transports) {
    for (const era of eras) {
      it(`lists, searches, describes and calls over ${transport} in ${era}`, async () => {
        const conn: Connected = transport === "stdio" ? await connectStdio(bundle, era, [], { GITHUB_BASE_URL: up.origin }) : await connectHttp(http.url, era);
        try {
          const { tools } = await conn.client.listTools();
          expect(tools.map((t) => t.name)).toEqual(["call_operation", "describe_operation", "search_operations"]);
          const text = (r: unknown) => ((r as { content: { text: string }[] }).content[0].text);
          const found = await conn.client.callTool({ name: "search_operations", arguments: { query: "get a repository", limit: 5 } });
          expect(text(found)).toContain("repos_get(owner: string, repo: string)");
          const described = await conn.client.callTool({ name: "describe_operation", arguments: { name: "repos_get" } });
          expect(JSON.parse(text(described)).inputSchema.required).toEqual(["owner", "repo"]);
          up.seen.length = 0;
          const called = await conn.client.callTool({ name: "call_operation", arguments: { name: "repos_get", arguments: { owner: "octo", repo: "hello" } } });
          expect(called.isError).toBeFalsy();
          expect(text(called)).toContain("GET /repos/octo/hello");
          expect(up.seen.map((s) => `${s.method} ${s.target}`)).toEqual(["GET /repos/octo/hello"]);
          const bad = await conn.client.callTool({ name: "call_operation", arguments: { name: "repos_get", arguments: { owner: "octo" } } });
          expect(bad.isError).toBe(true);
          expect(text(bad)).toContain("/repo");
          expect(up.seen).toHaveLength(1);
        } finally {
          await conn.close();
        }
      });
    }
  }
});
