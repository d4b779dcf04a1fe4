// tools/call frames for every tool kind over stdio against a server generated from test/soak/soak.yaml
// (exec: echo, http: a real local upstream, validate_json), with odd and hostile arguments: the same
// frame rules as jsonrpc-stdio, and no tool fault in place of an answer.
import fc from "fast-check";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { toolCallFrameArb } from "../frames.js";
import { documentArb, schemaArb } from "../schemas.js";
import type { FuzzProperty } from "../property.js";
import { startStdio, type StdioServer } from "../servers.js";
import { checkStdioFrame } from "../stdio-check.js";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));

interface Ctx {
  server: StdioServer;
  upstream: Server;
  dir: string;
}

const hostile = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("--help", "-rf /", "$(id)", "`id`", "a\u0000b", "../../etc/passwd", "%2e%2e", "\u202e", "x".repeat(5000)));

export const property: FuzzProperty<string, Ctx> = {
  name: "tools/call frames for exec, http and validate_json over stdio (test/soak/soak.yaml)",
  seed: 8_1212,
  numRuns: 200,
  testMs: 3000,
  arbitrary: toolCallFrameArb([
    ["echo_exec", fc.record({ text: fc.oneof(hostile, fc.jsonValue({ maxDepth: 1 })) }, { requiredKeys: [] })],
    ["lookup_http", fc.record({ id: fc.oneof(fc.integer(), fc.double(), hostile, fc.jsonValue({ maxDepth: 1 })) }, { requiredKeys: [] })],
    ["validate_json", fc.record({ output: documentArb, schema: schemaArb })],
  ]),
  async setup() {
    const upstream = createServer((req, res) => {
      const id = /^\/items\/(\d+)$/.exec(req.url ?? "")?.[1];
      if (!id) return void res.writeHead(404, { "content-type": "text/html" }).end("<h1>no such item</h1>");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: Number(id), name: `item ${id}` }));
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const dir = mkdtempSync(join(tmpdir(), "kervan-fuzz-"));
    execFileSync(process.execPath, [join(REPO, "bin/kervan.mjs"), "gen", join(REPO, "test/soak/soak.yaml"), "--out", dir], { stdio: "ignore" });
    const server = startStdio(join(dir, "soak/server.mjs"), { SOAK_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
    return { server, upstream, dir };
  },
  check: (ctx, frame) => checkStdioFrame(ctx.server, frame),
  async teardown(ctx) {
    await ctx.server.stop();
    ctx.upstream.close();
    rmSync(ctx.dir, { recursive: true, force: true });
  },
  pids: (ctx) => (ctx.server.proc.pid ? [ctx.server.proc.pid] : []),
};
