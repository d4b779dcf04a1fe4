// Tasks behind OAuth with per-tool scopes, against a generated server and a real local JWKS endpoint:
// every tasks/* request is checked against the task's tool scopes (as tools/call is), invalid arguments
// never make a task, and the caps on tasks kept per principal, in all, and on result bytes hold.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { rpc, waitStatus } from "../helpers/rpc.js";
import { startIdp, type Idp } from "../serving/idp.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-scoped-"));
let idp: Idp;
let server: HttpServer;

function generate(): string {
  const gen = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", "test/fixtures/tasks/scoped.yaml", "--out", join(dir, "out")], { encoding: "utf8" });
  if (gen.status !== 0) throw new Error(`kervan gen failed:\n${gen.stdout}${gen.stderr}`);
  return join(dir, "out/scoped-jobs/server.mjs");
}

beforeAll(async () => {
  idp = await startIdp();
  server = await startHttpServer(generate(), ["--host", "127.0.0.1", "--oauth-jwks-url", idp.jwksUrl, "--oauth-jwks-cooldown-ms", "0"]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await idp?.close();
});

const as = async (sub: string, scope: string) => ({ headers: { authorization: `Bearer ${await idp.token({ sub, scope })}` } });
const text = (result: Record<string, unknown> | undefined) => JSON.stringify(result?.content ?? result);

describe("tasks/* and the task's tool scopes", () => {
  it("refuses tasks/get, tasks/cancel and tasks/update to a token of the same subject without the tool's scopes", async () => {
    const full = await as("alice", "jobs admin");
    const none = await as("alice", "");
    const job = await rpc(server.url, "tools/call", { name: "scoped_job", arguments: { seconds: 30, text: "secret result" } }, full);
    expect(job.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = String(job.result!.taskId);
    // The same refusal tools/call gives the weaker token.
    const call = await rpc(server.url, "tools/call", { name: "scoped_job", arguments: { seconds: 0, text: "x" } }, none);
    expect(call.status).toBe(403);
    for (const method of ["tasks/get", "tasks/cancel"]) {
      const answer = await rpc(server.url, method, { taskId }, none);
      expect(answer.status).toBe(403);
      expect(answer.error?.message).toMatch(/scopes do not allow/);
      expect(answer.result).toBeUndefined();
    }
    expect((await rpc(server.url, "tasks/get", { taskId }, full)).result).toMatchObject({ status: "working" });

    const victim = join(dir, "keep.txt");
    writeFileSync(victim, "keep me");
    const removal = await rpc(server.url, "tools/call", { name: "admin_remove", arguments: { path: victim } }, full);
    const removeId = String(removal.result!.taskId);
    const asked = await waitStatus(server.url, removeId, ["input_required"], full);
    const key = Object.keys(asked.inputRequests as object)[0];
    const accept = { [key]: { action: "accept", content: { confirm: true } } };
    const update = await rpc(server.url, "tasks/update", { taskId: removeId, inputResponses: accept }, none);
    expect(update.status).toBe(403);
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(victim)).toBe(true);
    expect((await rpc(server.url, "tasks/get", { taskId: removeId }, full)).result).toMatchObject({ status: "input_required" });
    await rpc(server.url, "tasks/cancel", { taskId: removeId }, full);
    await rpc(server.url, "tasks/cancel", { taskId }, full);
  });
});

describe("task caps (maxPerPrincipal 3, maxTasks 6, maxResultBytes 4096)", () => {
  it("makes no task for invalid arguments, fails an oversized result, and refuses past each cap with a sentence", async () => {
    const bob = await as("bob", "jobs");
    for (let i = 0; i < 3; i++) {
      const bad = await rpc(server.url, "tools/call", { name: "scoped_job", arguments: { seconds: "soon", text: 1 } }, bob);
      expect(bad.result).toMatchObject({ isError: true });
      expect(bad.result?.taskId).toBeUndefined();
    }
    const big = await rpc(server.url, "tools/call", { name: "scoped_job", arguments: { seconds: 0, text: "x".repeat(5000) } }, bob);
    const failed = await waitStatus(server.url, String(big.result!.taskId), ["completed", "failed"], bob);
    expect(failed.status).toBe("failed");
    expect(JSON.stringify(failed.error)).toContain("more than the 4096");
    for (let i = 0; i < 2; i++) expect((await rpc(server.url, "tools/call", { name: "scoped_job", arguments: { seconds: 0, text: "ok" } }, bob)).result).toMatchObject({ resultType: "task" });
    const fourth = await rpc(server.url, "tools/call", { name: "scoped_job", arguments: { seconds: 0, text: "ok" } }, bob);
    expect(fourth.result).toMatchObject({ isError: true });
    expect(text(fourth.result)).toContain("this caller already keeps 3 tasks");

    const carol = await as("carol", "jobs");
    expect((await rpc(server.url, "tools/call", { name: "scoped_job", arguments: { seconds: 0, text: "ok" } }, carol)).result).toMatchObject({ resultType: "task" });
    const over = await rpc(server.url, "tools/call", { name: "scoped_job", arguments: { seconds: 0, text: "ok" } }, carol);
    expect(over.result).toMatchObject({ isError: true });
    expect(text(over.result)).toContain("the server already keeps 6 tasks");
  });
});
