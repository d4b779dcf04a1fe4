// Every checked-in server under out/ on the wire: it starts, answers the official client over stdio in
// each protocol era and over Streamable HTTP, lists its manifest's tools, and one validate-style call
// is refused as a readable tool error. `npm run node-versions` runs this (with test/e2e) under Node 20,
// 22 and 24 (issue 25, item 6).
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectHttp, connectStdio, startHttpServer, VERSION_MODES } from "../helpers/client.js";

const SERVERS = readdirSync("out").filter((d) => existsSync(join("out", d, "kervan.manifest.json"))).sort();

function manifestOf(server: string) {
  return JSON.parse(readFileSync(join("out", server, "kervan.manifest.json"), "utf8")) as {
    tools: { name: string; reachedThrough?: string }[];
    listing: { tools: Record<string, number> };
    capabilities?: { secrets?: string[] };
  };
}

/** A placeholder value for every secret the server reads, so it starts (nothing here reaches an upstream). */
const envFor = (server: string) => Object.fromEntries((manifestOf(server).capabilities?.secrets ?? []).map((s) => [s, "test-token"]));
// A project of its own to serve from: a checkout here may be a git worktree, whose .git the sandbox does not show.
const project = mkdtempSync(join(tmpdir(), "kervan-out-servers-"));
execFileSync("git", ["init", "-q", project]);
const ARGS = ["--cwd", project];
/** What tools/list shows: every tool of a flat server; a catalog server's catalog tools and its `expose: always` tools. */
const toolNames = (server: string) => Object.keys(manifestOf(server).listing.tools).sort();

it.each(SERVERS)("out/%s: every tool of the manifest is listed or reached through call_operation or execute", (server) => {
  const m = manifestOf(server);
  for (const t of m.tools) expect(t.name in m.listing.tools || ["call_operation", "execute"].includes(t.reachedThrough ?? ""), t.name).toBe(true);
});

describe.each(SERVERS)("out/%s on the wire", (server) => {
  const bundle = join("out", server, "server.mjs");
  it.each(VERSION_MODES)("stdio, %s: lists the manifest's tools and refuses bad arguments readably", async (mode) => {
    const c = await connectStdio(bundle, mode, ARGS, envFor(server));
    try {
      const { tools } = await c.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(toolNames(server));
      const res = await c.client.callTool({ name: tools[0].name, arguments: { "not-an-argument": 1 } });
      expect(res.isError).toBe(true);
    } finally {
      await c.close();
    }
  }, 30_000);

  it("Streamable HTTP: lists the manifest's tools", async () => {
    const http = await startHttpServer(bundle, ARGS, envFor(server));
    try {
      const c = await connectHttp(`${http.url}`, "auto");
      const { tools } = await c.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(toolNames(server));
      await c.close();
    } finally {
      await http.stop();
    }
  }, 30_000);
});

it("covers every server under out/", () => expect(SERVERS.length).toBeGreaterThanOrEqual(6));
