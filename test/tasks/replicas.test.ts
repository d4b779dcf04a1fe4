// Three replicas of one generated server sharing a real Redis, each addressed directly: a task started
// on one is read and cancelled through the others, and a replica killed with SIGKILL leaves its tasks
// failed once its lease lapses, never working forever.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { generateJobs, rpc, waitStatus } from "../helpers/rpc.js";
import { alive, waitDead } from "../kinds/exec/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-replicas-"));
let redis: RedisServer;
let bundle: string;
let replicas: HttpServer[] = [];

async function pidOf(file: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    if (existsSync(file) && readFileSync(file, "utf8").trim()) return Number(readFileSync(file, "utf8").trim());
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${file} never got a pid`);
}

beforeAll(async () => {
  redis = await startRedis();
  bundle = generateJobs("redis");
  const env = { KERVAN_TASKS_REDIS_URL: redis.url, KERVAN_TASKS_LEASE_MS: "1000" };
  replicas = await Promise.all([0, 1, 2].map(() => startHttpServer(bundle, ["--host", "127.0.0.1"], env)));
}, 120_000);
afterAll(async () => {
  await Promise.all(replicas.filter((r) => r.proc.exitCode === null && r.proc.signalCode === null).map((r) => r.stop()));
  await redis?.stop();
});

describe("tasks shared through Redis", () => {
  it("a task started on one replica is polled on a second and cancelled through a third", async () => {
    const [a, b, c] = replicas;
    const file = join(dir, "shared.pid");
    const created = await rpc(a.url, "tools/call", { name: "long_job", arguments: { pidfile: file, seconds: 60 } });
    expect(created.result).toMatchObject({ resultType: "task" });
    const taskId = String(created.result!.taskId);
    expect((await rpc(b.url, "tasks/get", { taskId })).result).toMatchObject({ taskId, status: "working" });
    const pid = await pidOf(file);
    expect((await rpc(c.url, "tasks/cancel", { taskId })).result).toMatchObject({ resultType: "complete" });
    expect(await waitDead(pid, 10_000)).toBe(true); // the cancel reached replica a, which killed the job
    expect((await rpc(b.url, "tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
  });

  it("answers a confirmation through another replica than the one running the task", async () => {
    const [a, b] = replicas;
    const victim = join(dir, "victim");
    (await import("node:fs")).writeFileSync(victim, "x");
    const created = await rpc(a.url, "tools/call", { name: "remove_file", arguments: { path: victim } });
    const taskId = String(created.result!.taskId);
    await waitStatus(b.url, taskId, ["input_required"]);
    await rpc(b.url, "tasks/update", { taskId, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } });
    expect((await waitStatus(b.url, taskId, ["completed", "failed", "cancelled"])).status).toBe("completed");
    expect(existsSync(victim)).toBe(false);
  });

  it("a replica killed with SIGKILL leaves its tasks failed after the lease", async () => {
    const [a, b] = replicas.slice(1);
    const file = join(dir, "orphan.pid");
    const created = await rpc(a.url, "tools/call", { name: "long_job", arguments: { pidfile: file, seconds: 60 } });
    const taskId = String(created.result!.taskId);
    const pid = await pidOf(file);
    await a.stop("SIGKILL");
    if (alive(pid)) process.kill(-pid, "SIGKILL"); // the dead replica's orphaned job
    const failed = await waitStatus(b.url, taskId, ["failed", "completed", "cancelled"]);
    expect(failed).toMatchObject({ status: "failed", error: { code: -32603 } });
    expect(String(failed.statusMessage)).toContain("lease expired");
  });
});
