// 2025-11-25 confirmations over stdio: the server sends the client an elicitation/create request when
// the client declared elicitation at initialize, runs only on an accepting answer, and otherwise
// answers a tool error saying nothing ran.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { spawnRaw, type RawServer } from "../runtime/raw.js";
import { generateJobs } from "../helpers/rpc.js";

let bundle: string;
const dir = mkdtempSync(join(tmpdir(), "kervan-legacy-confirm-"));
const victim = (name: string) => {
  const path = join(dir, name);
  writeFileSync(path, "precious");
  return path;
};

beforeAll(() => {
  bundle = generateJobs("memory");
}, 120_000);

async function initialized(capabilities: Record<string, unknown>): Promise<RawServer> {
  const s = spawnRaw(bundle);
  s.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "t", version: "0" } } }));
  expect(await s.next()).toMatchObject({ id: 0, result: { protocolVersion: "2025-11-25" } });
  s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return s;
}

const callRemove = (id: number, path: string) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "remove_file", arguments: { path } } });

describe("2025-11-25 confirmation over stdio", () => {
  it("asks through elicitation/create and runs on accept", async () => {
    const s = await initialized({ elicitation: {} });
    const path = victim("a");
    s.send(callRemove(1, path));
    const ask = await s.next();
    expect(ask).toMatchObject({ method: "elicitation/create", params: { message: `Remove ${JSON.stringify(path)}? It cannot be restored.` } });
    expect(existsSync(path)).toBe(true);
    s.send(JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { action: "accept", content: { confirm: true } } }));
    const done = await s.next();
    expect(done).toMatchObject({ id: 1, result: {} });
    expect((done.result as { isError?: boolean }).isError).toBeUndefined();
    expect(existsSync(path)).toBe(false);
    s.proc.stdin!.end();
    await s.exited;
  });

  it("runs nothing when the user declines", async () => {
    const s = await initialized({ elicitation: {} });
    const path = victim("b");
    s.send(callRemove(1, path));
    const ask = await s.next();
    s.send(JSON.stringify({ jsonrpc: "2.0", id: ask.id, result: { action: "decline" } }));
    expect(await s.next()).toMatchObject({ id: 1, result: { isError: true } });
    expect(existsSync(path)).toBe(true);
    s.proc.stdin!.end();
    await s.exited;
  });

  it("asks for a value the caller left out, then confirms showing it, and runs with it", async () => {
    const s = await initialized({ elicitation: {} });
    const path = join(dir, "note.txt");
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "write_note", arguments: { path } } }));
    const askText = await s.next();
    expect(askText).toMatchObject({ method: "elicitation/create", params: { message: `What should the note at ${JSON.stringify(path)} say?`, requestedSchema: { properties: { text: { type: "string" } }, required: ["text"] } } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: askText.id, result: { action: "accept", content: { text: "call back" } } }));
    const askConfirm = await s.next();
    expect(askConfirm).toMatchObject({ method: "elicitation/create", params: { message: `Write "call back" to ${JSON.stringify(path)}?` } });
    expect(existsSync(path)).toBe(false);
    s.send(JSON.stringify({ jsonrpc: "2.0", id: askConfirm.id, result: { action: "accept", content: { confirm: true } } }));
    const done = await s.next();
    expect(done).toMatchObject({ id: 1, result: {} });
    expect((done.result as { isError?: boolean }).isError).toBeUndefined();
    expect(readFileSync(path, "utf8")).toBe("call back");
    s.proc.stdin!.end();
    await s.exited;
  });

  it("answers a clear tool error to a client without elicitation, and runs nothing", async () => {
    const s = await initialized({});
    const path = victim("c");
    s.send(callRemove(1, path));
    const done = await s.next();
    expect(done).toMatchObject({ id: 1, result: { isError: true } });
    expect(JSON.stringify(done)).toContain("declared no elicitation capability");
    expect(existsSync(path)).toBe(true);
    s.proc.stdin!.end();
    await s.exited;
  });
});
