// Task-augmented calls against generated servers over HTTP: the memory store for the lifecycle and the
// principal boundary, the file store across a crash and restart.
import { existsSync, mkdtempSync, readFileSync, statSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { generateJobs, rpc, waitStatus } from "../helpers/rpc.js";
import { alive, waitDead } from "../kinds/exec/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-tasks-"));
const pidfile = (name: string) => join(dir, `${name}.pid`);

async function pidOf(file: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    if (existsSync(file)) {
      const text = readFileSync(file, "utf8").trim();
      if (text) return Number(text);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${file} never got a pid`);
}

let memory: HttpServer;
let fileBundle: string;

beforeAll(async () => {
  memory = await startHttpServer(generateJobs("memory"), ["--host", "127.0.0.1"]);
  fileBundle = generateJobs("file");
}, 120_000);
afterAll(async () => {
  await memory?.stop();
});

describe("tasks (memory store)", () => {
  it("advertises the extension and returns a task at once, then its result", async () => {
    const discover = await rpc(memory.url, "server/discover");
    expect(discover.result).toMatchObject({ capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } });
    const created = await rpc(memory.url, "tools/call", { name: "long_job", arguments: { pidfile: pidfile("quick"), seconds: 0 } });
    expect(created.result).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 100 });
    const done = await waitStatus(memory.url, String(created.result!.taskId), ["completed", "failed", "cancelled"]);
    expect(done.status).toBe("completed");
    expect(JSON.stringify(done.result)).toContain("done");
  });

  it("runs plainly for a client without the extension", async () => {
    const plain = await rpc(memory.url, "tools/call", { name: "long_job", arguments: { pidfile: pidfile("plain"), seconds: 0 } }, { caps: {} });
    expect(plain.result).toMatchObject({ resultType: "complete" });
    expect(plain.result?.taskId).toBeUndefined();
    expect((await rpc(memory.url, "tasks/get", { taskId: "x" }, { caps: {} })).error?.code).toBe(-32021);
  });

  it("cancel kills the job's process group and the task reads cancelled", async () => {
    const file = pidfile("cancel");
    const created = await rpc(memory.url, "tools/call", { name: "long_job", arguments: { pidfile: file, seconds: 60 } });
    const taskId = String(created.result!.taskId);
    const pid = await pidOf(file);
    expect(alive(pid)).toBe(true);
    expect((await rpc(memory.url, "tasks/cancel", { taskId })).result).toMatchObject({ resultType: "complete" });
    expect(await waitDead(pid, 10_000)).toBe(true);
    expect((await rpc(memory.url, "tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
  });

  it("keeps a task to its principal: another caller can neither read nor cancel it", async () => {
    const file = pidfile("owned");
    const created = await rpc(memory.url, "tools/call", { name: "long_job", arguments: { pidfile: file, seconds: 60 } });
    const taskId = String(created.result!.taskId);
    const pid = await pidOf(file);
    for (const method of ["tasks/get", "tasks/cancel"]) {
      const other = await rpc(memory.url, method, { taskId }, { from: "127.0.0.3" });
      expect(other.error?.code).toBe(-32602);
    }
    expect(alive(pid)).toBe(true);
    expect((await rpc(memory.url, "tasks/get", { taskId })).result?.status).toBe("working");
    await rpc(memory.url, "tasks/cancel", { taskId });
    expect(await waitDead(pid, 10_000)).toBe(true);
  });
});

describe("tasks (file store)", () => {
  it("keeps 0600 records and reports a task failed with the reason after the server is killed and restarted", async () => {
    const store = mkdtempSync(join(tmpdir(), "kervan-taskdir-"));
    const env = { KERVAN_TASKS_DIR: store };
    const first = await startHttpServer(fileBundle, ["--host", "127.0.0.1"], env);
    const file = pidfile("crash");
    const created = await rpc(first.url, "tools/call", { name: "long_job", arguments: { pidfile: file, seconds: 60 } });
    const taskId = String(created.result!.taskId);
    const pid = await pidOf(file);
    const record = readdirSync(store).find((n) => n.startsWith(taskId))!;
    expect(statSync(join(store, record)).mode & 0o777).toBe(0o600);
    await first.stop("SIGKILL");
    process.kill(-pid, "SIGKILL"); // the crashed server's orphaned job (its own process group)
    const second = await startHttpServer(fileBundle, ["--host", "127.0.0.1"], env);
    try {
      const got = await rpc(second.url, "tasks/get", { taskId });
      expect(got.result).toMatchObject({ status: "failed", error: { code: -32603 } });
      expect(String(got.result?.statusMessage)).toContain("restarted");
    } finally {
      await second.stop();
    }
  });

  it("refuses to start on a task directory another live server holds", async () => {
    const store = mkdtempSync(join(tmpdir(), "kervan-taskdir-"));
    const first = await startHttpServer(fileBundle, ["--host", "127.0.0.1"], { KERVAN_TASKS_DIR: store });
    try {
      await expect(startHttpServer(fileBundle, ["--host", "127.0.0.1"], { KERVAN_TASKS_DIR: store })).rejects.toThrow(/in use by process/);
    } finally {
      await first.stop();
    }
  });
});
