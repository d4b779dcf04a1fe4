// 2025-11-25 questions over Streamable HTTP with the official client: a client that declared
// elicitation at initialize is sent elicitation/create on the call's event stream and answers with a
// POST; the call runs only on accepting answers, with the value given. A client that declared nothing
// gets a tool error and nothing runs; an answer from another principal is not taken.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { generateJobs } from "../helpers/rpc.js";

let server: HttpServer;
const dir = mkdtempSync(join(tmpdir(), "kervan-http-legacy-ask-"));

beforeAll(async () => {
  server = await startHttpServer(generateJobs("memory"), ["--host", "127.0.0.1"]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

type Answer = (message: string) => Record<string, unknown>;

async function legacyClient(elicitation: boolean, answer?: Answer): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client({ name: "kervan-test", version: "0.0.0" }, { versionNegotiation: { mode: "legacy" }, capabilities: elicitation ? { elicitation: { form: {} } } : {} });
  if (answer) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const message = String((request.params as { message: string }).message);
      asked.push(message);
      return answer(message) as never;
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return { client, asked };
}

describe("2025-11-25 questions over Streamable HTTP", () => {
  it("asks on the call's stream, takes the answers posted back, and runs with the value", async () => {
    const path = join(dir, "note.txt");
    const { client, asked } = await legacyClient(true, (m) => (m.startsWith("What") ? { action: "accept", content: { text: "over http" } } : { action: "accept", content: { confirm: true } }));
    const result = await client.callTool({ name: "write_note", arguments: { path } });
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual([`What should the note at ${JSON.stringify(path)} say?`, `Write "over http" to ${JSON.stringify(path)}?`]);
    expect(readFileSync(path, "utf8")).toBe("over http");
    await client.close();
  });

  it("runs nothing when the user declines the confirmation", async () => {
    const path = join(dir, "kept.txt");
    writeFileSync(path, "precious");
    const { client } = await legacyClient(true, () => ({ action: "decline" }));
    const result = await client.callTool({ name: "remove_file", arguments: { path } });
    expect(result.isError).toBe(true);
    expect(existsSync(path)).toBe(true);
    await client.close();
  });

  it("answers a tool error to a client that declared no elicitation, and runs nothing", async () => {
    const path = join(dir, "kept-too.txt");
    writeFileSync(path, "precious");
    const { client } = await legacyClient(false);
    const result = await client.callTool({ name: "remove_file", arguments: { path } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("declared no elicitation capability");
    expect(existsSync(path)).toBe(true);
    await client.close();
  });

  it("asks the client's model and roots on the call's stream when the client declared sampling and roots", async () => {
    const folder = mkdtempSync(join(dir, "root-"));
    const client = new Client({ name: "kervan-test", version: "0.0.0" }, { versionNegotiation: { mode: "legacy" }, capabilities: { sampling: {}, roots: {} } });
    const asked: string[] = [];
    client.setRequestHandler("sampling/createMessage", async (request) => {
      asked.push(JSON.stringify((request.params as { messages: unknown[] }).messages));
      return { role: "assistant", content: { type: "text", text: "Over the Wire" }, model: "test-model", stopReason: "endTurn" } as never;
    });
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: pathToFileURL(folder).href, name: "workspace" }] }) as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const result = await client.callTool({ name: "title_note", arguments: { topic: "http" } });
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual([JSON.stringify([{ role: "user", content: { type: "text", text: 'Suggest a title for a note about "http".' } }])]);
    expect(readFileSync(join(folder, "title.txt"), "utf8")).toBe("Over the Wire (http)");
    await client.close();
  });
});
