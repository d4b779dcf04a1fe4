// Confirmations over MRTR against a generated server on HTTP: nothing runs until the sealed state comes
// back with an accepting answer, and every misuse of the state is refused with nothing run.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { FULL_CAPS, generateJobs, rpc, waitStatus } from "../helpers/rpc.js";

let server: HttpServer;
let expiring: HttpServer;
const dir = mkdtempSync(join(tmpdir(), "kervan-confirm-"));
const victim = (name: string) => {
  const path = join(dir, name);
  writeFileSync(path, "precious");
  return path;
};
const accept = { action: "accept", content: { confirm: true } };

beforeAll(async () => {
  const bundle = generateJobs("memory");
  server = await startHttpServer(bundle, ["--host", "127.0.0.1"]);
  expiring = await startHttpServer(bundle, ["--host", "127.0.0.1"], { KERVAN_CONFIRM_TTL_MS: "1" });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await expiring?.stop();
});

async function ask(url: string, name: string, args: Record<string, unknown>) {
  const first = await rpc(url, "tools/call", { name, arguments: args }, { caps: { elicitation: {} } });
  expect(first.result).toMatchObject({ resultType: "input_required" });
  return first.result as { inputRequests: Record<string, { method: string; params: { message: string } }>; requestState: string };
}

describe("confirmation through MRTR", () => {
  it("asks first, with the argument quoted, and runs only on an accepting retry", async () => {
    const path = victim("a");
    const round = await ask(server.url, "remove_file", { path });
    expect(round.inputRequests.confirm.method).toBe("elicitation/create");
    expect(round.inputRequests.confirm.params.message).toBe(`Remove ${JSON.stringify(path)}? It cannot be restored.`);
    expect(existsSync(path)).toBe(true);
    const done = await rpc(server.url, "tools/call", { name: "remove_file", arguments: { path }, inputResponses: { confirm: accept }, requestState: round.requestState }, { caps: { elicitation: {} } });
    expect(done.result).toMatchObject({ resultType: "complete" });
    expect(done.result?.isError).toBeUndefined();
    expect(existsSync(path)).toBe(false);
  });

  it("runs nothing when the user declines or dismisses", async () => {
    const path = victim("b");
    for (const action of ["decline", "cancel"]) {
      const round = await ask(server.url, "remove_file", { path });
      const answer = await rpc(server.url, "tools/call", { name: "remove_file", arguments: { path }, inputResponses: { confirm: { action } }, requestState: round.requestState }, { caps: { elicitation: {} } });
      expect(answer.result).toMatchObject({ resultType: "complete", isError: true });
      expect(JSON.stringify(answer.result)).toContain("did not run");
    }
    expect(existsSync(path)).toBe(true);
  });

  it.each([
    ["tampered", (s: string) => ({ requestState: s.slice(0, -4) + (s.endsWith("AAAA") ? "BBBB" : "AAAA") }), "integrity"],
    ["replayed to another tool", (s: string) => ({ requestState: s, name: "truncate_file" }), "another tool"],
    ["replayed with other arguments", (s: string) => ({ requestState: s, arguments: { path: join(dir, "other") } }), "other arguments"],
    ["sent by another caller", (s: string) => ({ requestState: s, from: "127.0.0.2" }), "another caller"],
  ])("refuses a state %s, and nothing runs", async (_what, change, reason) => {
    const path = victim(`c-${reason.replace(/ /g, "-")}`);
    const round = await ask(server.url, "remove_file", { path });
    const { from, ...edit } = change(round.requestState) as Record<string, unknown> & { from?: string };
    const params = { name: "remove_file", arguments: { path }, inputResponses: { confirm: accept }, requestState: round.requestState, ...edit };
    const answer = await rpc(server.url, "tools/call", params, { caps: { elicitation: {} }, ...(from ? { from } : {}) });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain(reason);
    expect(existsSync(path)).toBe(true);
    if (params.arguments.path !== path) expect(existsSync(String(params.arguments.path))).toBe(false);
  });

  it("serves a state once: the same retry sent again is refused, and nothing runs again", async () => {
    const path = victim("replay");
    const round = await ask(server.url, "remove_file", { path });
    const retry = { name: "remove_file", arguments: { path }, inputResponses: { confirm: accept }, requestState: round.requestState };
    const first = await rpc(server.url, "tools/call", retry, { caps: { elicitation: {} } });
    expect(first.result).toMatchObject({ resultType: "complete" });
    expect(existsSync(path)).toBe(false);
    writeFileSync(path, "precious again");
    const replay = await rpc(server.url, "tools/call", retry, { caps: { elicitation: {} } });
    expect(replay.error).toMatchObject({ code: -32602, message: expect.stringContaining("already used") });
    expect(existsSync(path)).toBe(true);
  });

  it("refuses an expired state, and nothing runs", async () => {
    const path = victim("d");
    const round = await ask(expiring.url, "remove_file", { path });
    const answer = await rpc(expiring.url, "tools/call", { name: "remove_file", arguments: { path }, inputResponses: { confirm: accept }, requestState: round.requestState }, { caps: { elicitation: {} } });
    expect(answer.error).toMatchObject({ code: -32602, message: expect.stringContaining("expired") });
    expect(existsSync(path)).toBe(true);
  });

  it("asks again when the retry lacks the answer or the state", async () => {
    const path = victim("e");
    const round = await ask(server.url, "remove_file", { path });
    const noAnswer = await rpc(server.url, "tools/call", { name: "remove_file", arguments: { path }, inputResponses: { other: accept }, requestState: round.requestState }, { caps: { elicitation: {} } });
    expect(noAnswer.result).toMatchObject({ resultType: "input_required" });
    const noState = await rpc(server.url, "tools/call", { name: "remove_file", arguments: { path }, inputResponses: { confirm: accept } }, { caps: { elicitation: {} } });
    expect(noState.result).toMatchObject({ resultType: "input_required" });
    expect(existsSync(path)).toBe(true);
  });

  it("answers -32021 naming elicitation to a client that cannot show a confirmation", async () => {
    const path = victim("f");
    const answer = await rpc(server.url, "tools/call", { name: "remove_file", arguments: { path } }, { caps: {} });
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    expect(existsSync(path)).toBe(true);
  });
});

describe("confirmation inside a task", () => {
  it("parks the task in input_required and runs once tasks/update confirms", async () => {
    const path = victim("g");
    const created = await rpc(server.url, "tools/call", { name: "remove_file", arguments: { path } });
    expect(created.result).toMatchObject({ resultType: "task" });
    const taskId = String(created.result!.taskId);
    const parked = await waitStatus(server.url, taskId, ["input_required"]);
    expect(Object.keys(parked.inputRequests as object)).toEqual(["confirm"]);
    expect(existsSync(path)).toBe(true);
    expect((await rpc(server.url, "tasks/update", { taskId, inputResponses: { confirm: accept } })).result).toMatchObject({ resultType: "complete" });
    const done = await waitStatus(server.url, taskId, ["completed", "failed", "cancelled"]);
    expect(done.status).toBe("completed");
    expect(existsSync(path)).toBe(false);
  });

  it("completes with a tool error and runs nothing when declined", async () => {
    const path = victim("h");
    const created = await rpc(server.url, "tools/call", { name: "remove_file", arguments: { path } }, { caps: FULL_CAPS });
    const taskId = String(created.result!.taskId);
    await waitStatus(server.url, taskId, ["input_required"]);
    await rpc(server.url, "tasks/update", { taskId, inputResponses: { confirm: { action: "decline" } } });
    const done = await waitStatus(server.url, taskId, ["completed", "failed", "cancelled"]);
    expect(done).toMatchObject({ status: "completed", result: { isError: true } });
    expect(existsSync(path)).toBe(true);
  });
});
