// Inputs asked from the client rather than the user (ask: with sample: or roots: true) against a
// generated server: under 2026-07-28 as input_required rounds (sampling/createMessage, roots/list) whose
// answers are checked before anything runs, asked only as far as the client declared the capability;
// inside a task as its input_required; under 2025-11-25 over stdio as requests to the client, as it
// declared at initialize.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { generateJobs, rpc, TASKS, waitStatus } from "../helpers/rpc.js";
import { spawnRaw, type RawServer } from "../runtime/raw.js";

let server: HttpServer;
let bundle: string;
const base = mkdtempSync(join(tmpdir(), "kervan-client-asks-"));
let n = 0;
const folder = () => mkdtempSync(join(base, `w${n++}-`));
const BOTH = { caps: { sampling: {}, roots: {} } };
const sampled = (text: string) => ({ role: "assistant", content: { type: "text", text }, model: "test-model", stopReason: "endTurn" });
const roots = (...dirs: string[]) => ({ roots: dirs.map((d) => ({ uri: pathToFileURL(d).href, name: "workspace" })) });
type Round = { inputRequests: Record<string, { method: string; params: Record<string, unknown> }>; requestState: string };

beforeAll(async () => {
  bundle = generateJobs("memory");
  server = await startHttpServer(bundle, ["--host", "127.0.0.1"]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const call = (name: string, params: Record<string, unknown>, opts: { caps?: Record<string, unknown> } = BOTH) => rpc(server.url, "tools/call", { name, ...params }, opts);

describe("inputs from the client's model and roots through MRTR", () => {
  it("asks sampling and roots in one round, then runs with the model's text and the first root's path", async () => {
    const dir = folder();
    const first = (await call("title_note", { arguments: { topic: "cats" } })).result as unknown as Round;
    expect(first).toMatchObject({ resultType: "input_required" });
    expect(first.inputRequests).toEqual({
      suggest: {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: 'Suggest a title for a note about "cats".' } }], maxTokens: 20, systemPrompt: "Answer with the title only." },
      },
      workspace: { method: "roots/list", params: {} },
    });
    const done = await call("title_note", { arguments: { topic: "cats" }, inputResponses: { suggest: sampled("On Cats"), workspace: roots(dir, folder()) }, requestState: first.requestState });
    expect(done.result).toMatchObject({ resultType: "complete" });
    expect(done.result?.isError).toBeUndefined();
    expect(readFileSync(join(dir, "title.txt"), "utf8")).toBe("On Cats (cats)");
  });

  it.each([
    ["a sampling answer without a model", { suggest: { role: "assistant", content: { type: "text", text: "x" } } }, "not a sampling result"],
    ["a sampling answer with image content", { suggest: { ...sampled("x"), content: { type: "image", data: "AAAA", mimeType: "image/png" } } }, "image content, not text"],
    ["an elicitation answer where a sampling result belongs", { suggest: { action: "accept", content: { title: "x" } } }, "not a sampling result"],
    ["a root that is not a file:// URI", { workspace: { roots: [{ uri: "https://example.com/" }] } }, "not a roots list"],
    ["a roots answer without roots", { workspace: { items: [] } }, "not a roots list"],
    ["an empty roots list for a needed input", { workspace: { roots: [] } }, "lists no roots"],
  ])("refuses %s, and nothing runs", async (_what, bad, reason) => {
    const dir = folder();
    const first = (await call("title_note", { arguments: { topic: "dogs" } })).result as unknown as Round;
    const answers = { suggest: sampled("On Dogs"), workspace: roots(dir), ...bad };
    const answer = await call("title_note", { arguments: { topic: "dogs" }, inputResponses: answers, requestState: first.requestState });
    expect(answer.result).toMatchObject({ resultType: "complete", isError: true });
    expect(JSON.stringify(answer.result)).toContain("did not run");
    expect(JSON.stringify(answer.result)).toContain(reason);
    expect(existsSync(join(dir, "title.txt"))).toBe(false);
  });

  it("refuses a needed input's missing capability with -32021 naming it (HTTP 400), before anything is asked", async () => {
    const answer = await call("title_note", { arguments: { topic: "owls" } }, { caps: { sampling: {} } });
    expect(answer.status).toBe(400);
    expect(answer.error?.code).toBe(-32021);
    expect(answer.error?.data).toEqual({ requiredCapabilities: { roots: {} } });
    const none = await call("title_note", { arguments: { topic: "owls" } }, { caps: {} });
    expect(none.error?.data).toEqual({ requiredCapabilities: { sampling: {}, roots: {} } });
    // A caller that gives the values needs no capability at all.
    const dir = folder();
    const given = await call("title_note", { arguments: { topic: "owls", title: "Owls", folder: dir } }, { caps: {} });
    expect(given.result).toMatchObject({ resultType: "complete" });
    expect(readFileSync(join(dir, "title.txt"), "utf8")).toBe("Owls (owls)");
  });

  it("asks an optional input only when the client declared its capability, else runs without it", async () => {
    const requests = async (caps: Record<string, unknown>) => {
      const answer = await call("sign_note", { arguments: {} }, { caps });
      return answer.result?.resultType === "input_required" ? Object.values((answer.result as unknown as Round).inputRequests).map((r) => r.method) : answer.result;
    };
    expect(await requests({ sampling: {} })).toEqual(["sampling/createMessage"]);
    expect(await requests({ elicitation: {} })).toEqual(["elicitation/create"]);
    expect(await requests({ elicitation: {}, sampling: {} })).toEqual(["elicitation/create", "sampling/createMessage"]);
    expect(await requests({})).toMatchObject({ resultType: "complete", structuredContent: { stdout: "signed\n" } });
    const first = (await call("sign_note", { arguments: {} }, { caps: { sampling: {} } })).result as unknown as Round;
    const done = await call("sign_note", { arguments: {}, inputResponses: { motto: sampled("Keep calm, carry on") }, requestState: first.requestState }, { caps: { sampling: {} } });
    expect(done.result).toMatchObject({ structuredContent: { stdout: "signed motto Keep calm, carry on\n" } });
  });

  it("inside a task: the task waits input_required for what the client can answer, and runs with it", async () => {
    const caps = { sampling: {}, extensions: { [TASKS]: {} } };
    const created = await call("sign_note", { arguments: {} }, { caps });
    expect(created.result).toMatchObject({ resultType: "task" });
    const taskId = String(created.result!.taskId);
    const asked = await waitStatus(server.url, taskId, ["input_required"], { caps });
    expect(Object.values(asked.inputRequests as Record<string, { method: string }>).map((r) => r.method)).toEqual(["sampling/createMessage"]);
    await rpc(server.url, "tasks/update", { taskId, inputResponses: { motto: sampled("Tasks wait for answers") } }, { caps });
    const done = await waitStatus(server.url, taskId, ["completed", "failed", "cancelled"], { caps });
    expect(done).toMatchObject({ status: "completed", result: { structuredContent: { stdout: "signed motto Tasks wait for answers\n" } } });
  });

  it("keeps the state bound: other arguments or a second use are refused, and nothing runs", async () => {
    const dir = folder();
    const first = (await call("title_note", { arguments: { topic: "bees" } })).result as unknown as Round;
    const answers = { suggest: sampled("On Bees"), workspace: roots(dir) };
    const other = await call("title_note", { arguments: { topic: "wasps" }, inputResponses: answers, requestState: first.requestState });
    expect(other.error?.code).toBe(-32602);
    expect(other.error?.message).toContain("other arguments");
    expect(existsSync(join(dir, "title.txt"))).toBe(false);
    const retry = { arguments: { topic: "bees" }, inputResponses: answers, requestState: first.requestState };
    expect((await call("title_note", retry)).result).toMatchObject({ resultType: "complete" });
    const again = await call("title_note", retry);
    expect(again.error?.message).toContain("already used");
  });
});

async function initialized(capabilities: Record<string, unknown>): Promise<RawServer> {
  const s = spawnRaw(bundle);
  s.send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "t", version: "0" } } }));
  expect(await s.next()).toMatchObject({ id: 0, result: { protocolVersion: "2025-11-25" } });
  s.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return s;
}

const callTool = (id: number, name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

describe("2025-11-25: inputs from the client's model and roots over stdio", () => {
  it("sends sampling/createMessage and roots/list to a client that declared both, and runs with the answers", async () => {
    const s = await initialized({ sampling: {}, roots: {} });
    const dir = folder();
    s.send(callTool(1, "title_note", { topic: "moths" }));
    const sample = await s.next();
    expect(sample).toMatchObject({ method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: 'Suggest a title for a note about "moths".' } }], maxTokens: 20 } });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: sample.id, result: sampled("Moths at Night") }));
    const list = await s.next();
    expect(list).toMatchObject({ method: "roots/list", params: {} });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: list.id, result: roots(dir) }));
    const done = await s.next();
    expect(done).toMatchObject({ id: 1, result: {} });
    expect((done.result as { isError?: boolean }).isError).toBeUndefined();
    expect(readFileSync(join(dir, "title.txt"), "utf8")).toBe("Moths at Night (moths)");
    s.proc.kill();
  });

  it("answers a tool error naming what is missing when the client did not declare it, and nothing runs", async () => {
    const s = await initialized({ sampling: {} });
    s.send(callTool(1, "title_note", { topic: "ants" }));
    const answer = await s.next();
    expect(answer).toMatchObject({ id: 1, result: { isError: true } });
    expect(JSON.stringify(answer)).toContain("folder from the client's roots (roots)");
    s.proc.kill();
  });

  it("refuses a malformed answer from the client, and nothing runs", async () => {
    const s = await initialized({ sampling: {}, roots: {} });
    const dir = folder();
    s.send(callTool(1, "title_note", { topic: "gnats", folder: dir }));
    const sample = await s.next();
    s.send(JSON.stringify({ jsonrpc: "2.0", id: sample.id, result: { role: "assistant", content: { type: "text" }, model: "m" } }));
    const answer = await s.next();
    expect(answer).toMatchObject({ id: 1, result: { isError: true } });
    expect(JSON.stringify(answer)).toContain("not a sampling result");
    expect(existsSync(join(dir, "title.txt"))).toBe(false);
    s.proc.kill();
  });

  it("asks only what the client declared for optional inputs", async () => {
    const s = await initialized({ sampling: {} });
    s.send(callTool(1, "sign_note", {}));
    const sample = await s.next();
    expect(sample).toMatchObject({ method: "sampling/createMessage" });
    s.send(JSON.stringify({ jsonrpc: "2.0", id: sample.id, result: sampled("Slow and steady wins") }));
    expect(await s.next()).toMatchObject({ id: 1, result: { structuredContent: { stdout: "signed motto Slow and steady wins\n" } } });
    s.proc.kill();
  });
});
