// Asked inputs (ask:) against a generated server on HTTP: a value the caller leaves out is asked from
// the user, shown in the confirmation that follows, and is what the command runs with; a decline, a bad
// value or a replayed state runs nothing. Inside a task the rounds park it input_required one after the
// other; with questions: before-task they are a multi round-trip request before the task exists.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { FULL_CAPS, generateJobs, rpc, waitStatus } from "../helpers/rpc.js";

let server: HttpServer;
let bundle: string;
const dir = mkdtempSync(join(tmpdir(), "kervan-ask-"));
const confirm = { action: "accept", content: { confirm: true } };
const plain = { caps: { elicitation: {} } };
type Round = { inputRequests: Record<string, { method: string; params: { message: string; requestedSchema: unknown } }>; requestState: string };

beforeAll(async () => {
  bundle = generateJobs("memory");
  server = await startHttpServer(bundle, ["--host", "127.0.0.1"]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const call = (params: Record<string, unknown>, opts = plain) => rpc(server.url, "tools/call", { name: "write_note", ...params }, opts);

describe("asked inputs through MRTR", () => {
  it("asks for the missing value, then confirms showing it, then runs with it", async () => {
    const path = join(dir, "a.txt");
    const first = (await call({ arguments: { path } })).result as unknown as Round;
    expect(Object.keys(first.inputRequests)).toEqual(["text"]); // the confirmation shows {text}: it waits
    expect(first.inputRequests.text.params).toMatchObject({
      message: `What should the note at ${JSON.stringify(path)} say?`,
      requestedSchema: { type: "object", properties: { text: { type: "string", description: "The note; asked from the user when left out." } }, required: ["text"] },
    });
    const second = (await call({ arguments: { path }, inputResponses: { text: { action: "accept", content: { text: "buy milk", path: "/etc/passwd" } } }, requestState: first.requestState })).result as unknown as Round;
    expect(Object.keys(second.inputRequests)).toEqual(["confirm"]);
    expect(second.inputRequests.confirm.params.message).toBe(`Write "buy milk" to ${JSON.stringify(path)}?`);
    expect(existsSync(path)).toBe(false);
    const done = await call({ arguments: { path }, inputResponses: { confirm }, requestState: second.requestState });
    expect(done.result).toMatchObject({ resultType: "complete" });
    expect(done.result?.isError).toBeUndefined();
    expect(readFileSync(path, "utf8")).toBe("buy milk"); // only the asked field was taken from the answer
  });

  it("asks only the confirmation when the caller gave the value", async () => {
    const path = join(dir, "b.txt");
    const first = (await call({ arguments: { path, text: "given" } })).result as unknown as Round;
    expect(Object.keys(first.inputRequests)).toEqual(["confirm"]);
    await call({ arguments: { path, text: "given" }, inputResponses: { confirm }, requestState: first.requestState });
    expect(readFileSync(path, "utf8")).toBe("given");
  });

  it("runs nothing when the user declines to give the value", async () => {
    const path = join(dir, "c.txt");
    const first = (await call({ arguments: { path } })).result as unknown as Round;
    const answer = await call({ arguments: { path }, inputResponses: { text: { action: "decline" } }, requestState: first.requestState });
    expect(answer.result).toMatchObject({ resultType: "complete", isError: true });
    expect(JSON.stringify(answer.result)).toContain("needs text from the user, and the user declined to give it");
    expect(existsSync(path)).toBe(false);
  });

  it("refuses a value that breaks the input schema with a readable tool error, and runs nothing", async () => {
    const path = join(dir, "d.txt");
    const first = (await call({ arguments: { path } })).result as unknown as Round;
    const second = (await call({ arguments: { path }, inputResponses: { text: { action: "accept", content: { text: 201 } } }, requestState: first.requestState })).result as unknown as Round;
    const done = await call({ arguments: { path }, inputResponses: { confirm }, requestState: second.requestState });
    expect(done.result).toMatchObject({ isError: true });
    expect(JSON.stringify(done.result)).toContain("text");
    expect(existsSync(path)).toBe(false);
  });

  it("refuses an earlier round's state once it was used, and runs nothing", async () => {
    const path = join(dir, "e.txt");
    const first = (await call({ arguments: { path } })).result as unknown as Round;
    const retry = { arguments: { path }, inputResponses: { text: { action: "accept", content: { text: "once" } } }, requestState: first.requestState };
    expect((await call(retry)).result).toMatchObject({ resultType: "input_required" });
    const replay = await call(retry);
    expect(replay.error).toMatchObject({ code: -32602, message: expect.stringContaining("already used") });
    expect(existsSync(path)).toBe(false);
  });

  it("asks for a tool that neither confirms nor runs as a task, and runs with the value", async () => {
    const first = await rpc(server.url, "tools/call", { name: "greet_now", arguments: {} }, plain);
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { name: { params: { message: "Who should be greeted now?" } } } });
    const done = await rpc(server.url, "tools/call", { name: "greet_now", arguments: {}, inputResponses: { name: { action: "accept", content: { name: "Bo" } } }, requestState: first.result!.requestState }, plain);
    expect(done.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: expect.stringContaining("Hi, Bo.") }] });
    const given = await rpc(server.url, "tools/call", { name: "greet_now", arguments: { name: "Cy" } }, { caps: {} });
    expect(given.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: expect.stringContaining("Hi, Cy.") }] });
  });

  it("takes an asked value answered without a state, ignoring unknown keys, but never a confirmation", async () => {
    const path = join(dir, "g.txt");
    const extra = { unknown_key: { action: "accept", content: { foo: "bar" } } };
    const first = await call({ arguments: { path }, inputResponses: { text: { action: "accept", content: { text: "no state" } }, confirm, ...extra } });
    const round = first.result as unknown as Round;
    expect(Object.keys(round.inputRequests)).toEqual(["confirm"]); // the value was taken, the confirmation was not
    expect(round.inputRequests.confirm.params.message).toBe(`Write "no state" to ${JSON.stringify(path)}?`);
    expect(existsSync(path)).toBe(false);
    await call({ arguments: { path }, inputResponses: { confirm }, requestState: round.requestState });
    expect(readFileSync(path, "utf8")).toBe("no state");
  });

  it("asks a confirmation again when it comes without a state, and runs nothing", async () => {
    const path = join(dir, "h.txt");
    const answer = await call({ arguments: { path, text: "unsealed" }, inputResponses: { confirm } });
    expect(answer.result).toMatchObject({ resultType: "input_required" });
    expect(Object.keys((answer.result as unknown as Round).inputRequests)).toEqual(["confirm"]);
    expect(existsSync(path)).toBe(false);
  });

  it("runs a tool that only asks on a first call that already carries the answer; a malformed one is asked again", async () => {
    const done = await rpc(server.url, "tools/call", { name: "greet_now", arguments: {}, inputResponses: { name: { action: "accept", content: { name: "Di" } }, other: { action: "accept", content: {} } } }, plain);
    expect(done.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: expect.stringContaining("Hi, Di.") }] });
    for (const bad of [12345, { action: "decline" }, { action: "accept", content: { other: "x" } }]) {
      const again = await rpc(server.url, "tools/call", { name: "greet_now", arguments: {}, inputResponses: { name: bad } }, plain);
      expect(again.result).toMatchObject({ resultType: "input_required", inputRequests: { name: { method: "elicitation/create" } } });
    }
  });

  it("refuses bad arguments before asking anything", async () => {
    const answer = await call({ arguments: { text: "no path" } });
    expect(answer.result).toMatchObject({ isError: true });
    expect(answer.result?.resultType).not.toBe("input_required");
  });
});

describe("asked inputs and tasks", () => {
  it("inside a task: parks for the value, then for the confirmation, then runs with the value", async () => {
    const path = join(dir, "f.txt");
    const created = await call({ arguments: { path } }, { caps: FULL_CAPS });
    expect(created.result).toMatchObject({ resultType: "task" });
    const taskId = String(created.result!.taskId);
    const asked = await waitStatus(server.url, taskId, ["input_required"]);
    expect(Object.keys(asked.inputRequests as object)).toEqual(["text"]);
    await rpc(server.url, "tasks/update", { taskId, inputResponses: { text: { action: "accept", content: { text: "from a task" } } } });
    // tasks/update has taken the value when it answers, so the next input_required is the confirmation
    // (keys are never reused within a task).
    const pending = await waitStatus(server.url, taskId, ["input_required"]);
    expect(Object.keys(pending.inputRequests as object)).toEqual(["confirm"]);
    expect(existsSync(path)).toBe(false);
    await rpc(server.url, "tasks/update", { taskId, inputResponses: { confirm } });
    const done = await waitStatus(server.url, taskId, ["completed", "failed", "cancelled"]);
    expect(done.status).toBe("completed");
    expect(readFileSync(path, "utf8")).toBe("from a task");
  });

  it("before the task: MRTR gathers the value, then the task is created and runs with it", async () => {
    const first = await rpc(server.url, "tools/call", { name: "greet_later", arguments: {} }, { caps: FULL_CAPS });
    expect(first.result).toMatchObject({ resultType: "input_required" });
    expect(first.result).not.toHaveProperty("taskId");
    const state = String(first.result!.requestState);
    const created = await rpc(server.url, "tools/call", { name: "greet_later", arguments: {}, inputResponses: { name: { action: "accept", content: { name: "Ada" } } }, requestState: state }, { caps: FULL_CAPS });
    expect(created.result).toMatchObject({ resultType: "task" });
    expect(created.result).not.toHaveProperty("requestState");
    const done = await waitStatus(server.url, String(created.result!.taskId), ["completed", "failed", "cancelled"]);
    expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: expect.stringContaining("Hello, Ada!") }] } });
  });
});

describe("asked inputs in AUDIT.md and the manifest", () => {
  it("names each asked field, its question and form type, and where a task asks", () => {
    const audit = readFileSync(join(dirname(bundle), "AUDIT.md"), "utf8");
    expect(audit).toContain("| Asks the user for inputs | `greet_later`, `greet_now`, `sign_note`, `write_note` |");
    expect(audit).toContain("| Asks the client's model or roots for inputs | `sign_note`, `title_note` |");
    expect(audit).toContain("- Asks the user for `text` (string) when the caller leaves it out, through a form (capability `elicitation`): `What should the note at {path} say?`; a decline runs nothing; a client that did not declare it is refused");
    expect(audit).toContain("- Asks the client's model for `title` (string, input request id `suggest`) when the caller leaves it out, through sampling/createMessage (capability `sampling`, at most 20 tokens, system prompt `Answer with the title only.`): `Suggest a title for a note about {topic}.`; a client that did not declare it is refused");
    expect(audit).toContain("- Asks the client for its roots for `folder` (string, input request id `workspace`: the first root's path) when the caller leaves it out, through roots/list (capability `roots`); a client that did not declare it is refused");
    expect(audit).toContain("- Asks the client's model for `motto` (string) when the caller leaves it out, through sampling/createMessage (capability `sampling`, at most 16 tokens): `Write a four-word motto.`; a client that did not declare it is served without the input");
    expect(audit).toContain("- As a task, asks its questions before the task is created (a multi round-trip request)");
    expect(audit).toContain("is served once (its nonce is recorded in the task store)");
    const manifest = JSON.parse(readFileSync(join(dirname(bundle), "kervan.manifest.json"), "utf8")) as { tools: { name: string; ask?: unknown; questions?: string }[] };
    const greet = manifest.tools.find((t) => t.name === "greet_later")!;
    expect(greet).toMatchObject({ questions: "before-task", ask: [{ field: "name", message: "Who should be greeted?", schema: { type: "string" } }] });
    expect(manifest.tools.find((t) => t.name === "title_note")!.ask).toEqual([
      { field: "title", message: "Suggest a title for a note about {topic}.", schema: { type: "string", description: "The title; asked from the client's model when left out." }, inputKey: "suggest", from: "sampling", maxTokens: 20, systemPrompt: "Answer with the title only." },
      { field: "folder", message: "", schema: { type: "string", description: "The folder to write in; the client's first root when left out." }, inputKey: "workspace", from: "roots" },
    ]);
  });
});
