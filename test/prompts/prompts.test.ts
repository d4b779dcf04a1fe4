// Prompts served by a generated server (test/fixtures/prompts/prompts.yaml) as a child process, read by
// the official client in each version mode over stdio and Streamable HTTP: the list, rendering with
// arguments, an embedded resource, an image read at build time, and -32602 for a missing required argument or an unknown prompt.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePrompts } from "./generate.js";
import { META, spawnRaw } from "../runtime/raw.js";
import { connectHttp, connectStdio, startHttpServer, VERSION_MODES, type Connected, type HttpServer } from "../helpers/client.js";

let bundle: string;
let http: HttpServer;

beforeAll(async () => {
  bundle = generatePrompts();
  http = await startHttpServer(bundle, ["--host", "127.0.0.1"]);
}, 120_000);
afterAll(async () => {
  await http?.stop();
});

const transports: [string, (mode: (typeof VERSION_MODES)[number]) => Promise<Connected>][] = [
  ["stdio", (mode) => connectStdio(bundle, mode)],
  ["http", (mode) => connectHttp(http.url, mode)],
];

for (const [transport, connect] of transports) {
  for (const mode of VERSION_MODES) {
    describe(`prompts over ${transport}, ${mode}`, () => {
      it("advertises prompts and lists them sorted, with their arguments", async () => {
        const c = await connect(mode);
        try {
          expect(c.client.getServerCapabilities()?.prompts).toBeDefined();
          const { prompts } = await c.client.listPrompts();
          expect(prompts.map((p) => p.name)).toEqual(["describe_pixel", "explain_snippet", "plan_trip", "review_file"]);
          expect(prompts[3]).toMatchObject({
            name: "review_file",
            title: "Review a file",
            description: "Ask the model to review one file, optionally with a focus.",
            arguments: [
              { name: "path", description: "The file to review.", required: true },
              { name: "focus", description: "What to look at most.", required: false },
            ],
          });
        } finally {
          await c.close();
        }
      });

      it("renders messages from the arguments, an optional one left out as empty text", async () => {
        const c = await connect(mode);
        try {
          const got = await c.client.getPrompt({ name: "review_file", arguments: { path: "src/a {b}.ts" } });
          expect(got.description).toBe("Ask the model to review one file, optionally with a focus.");
          expect(got.messages).toEqual([
            { role: "user", content: { type: "text", text: "Review src/a {b}.ts. Focus: . Braces stay: {path}." } },
            { role: "assistant", content: { type: "text", text: "I will read src/a {b}.ts first." } },
          ]);
          const snippet = await c.client.getPrompt({ name: "explain_snippet", arguments: { snippet: "x = 1" } });
          expect(snippet.messages[0]).toEqual({ role: "user", content: { type: "resource", resource: { uri: "snippet:///x = 1", mimeType: "text/plain", text: "x = 1" } } });
          // The image was read from pixel.png beside the spec at build time: the same bytes, base64.
          const pixel = await c.client.getPrompt({ name: "describe_pixel" });
          expect(pixel.messages[0]).toEqual({ role: "user", content: { type: "image", mimeType: "image/png", data: readFileSync("test/fixtures/prompts/pixel.png").toString("base64") } });
        } finally {
          await c.close();
        }
      });

      it("refuses a missing required argument, an unknown argument and an unknown prompt with -32602", async () => {
        const c = await connect(mode);
        try {
          await expect(c.client.getPrompt({ name: "review_file", arguments: { focus: "naming" } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('prompt "review_file" needs the argument path') });
          await expect(c.client.getPrompt({ name: "review_file", arguments: { path: "a", colour: "red" } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('has no argument "colour" (its arguments: path, focus)') });
          await expect(c.client.getPrompt({ name: "no_such_prompt" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown prompt: no_such_prompt") });
          // The tool is served as before, next to the prompts.
          const echoed = await c.client.callTool({ name: "echo_text", arguments: { text: "still here" } });
          expect(JSON.stringify(echoed.content)).toContain("still here");
        } finally {
          await c.close();
        }
      });
    });
  }
}

describe("a server without prompts", () => {
  it("does not advertise the prompts capability in either era, and answers prompts/* with -32601", async () => {
    const s = spawnRaw("out/validator/server.mjs");
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } }));
    const discovered = (await s.next()) as { result: { capabilities: Record<string, unknown> } };
    expect(discovered.result.capabilities).toEqual({ tools: {} });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "prompts/list", params: { _meta: META } }));
    expect(await s.next()).toMatchObject({ id: 2, error: { code: -32601, message: "Method not found: prompts/list" } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } }));
    expect(((await s.next()) as { result: { capabilities: unknown } }).result.capabilities).toEqual({ tools: {} });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 4, method: "prompts/get", params: { name: "anything" } }));
    expect(await s.next()).toMatchObject({ id: 4, error: { code: -32601, message: "Method not found: prompts/get" } });
    s.proc.stdin!.end();
    await s.exited;
  });
});
