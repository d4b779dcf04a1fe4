// A Redis outage under a generated server with the Redis task store: while Redis is down a
// task-creating call is answered while Redis is still down, with a JSON-RPC error naming the store,
// /readyz says 503, and the log has one line per state change (no stack per retry); once Redis is
// back (persisted, so nothing acknowledged is lost) /readyz is 200 again and a task that finished
// during the outage reads completed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { generateJobs, rpc, waitStatus } from "../helpers/rpc.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-outage-"));
const TIMEOUT_MS = 1000;
let redis: RedisServer;
let server: HttpServer;

beforeAll(async () => {
  redis = await startRedis({ persist: true });
  server = await startHttpServer(generateJobs("redis"), ["--host", "127.0.0.1"], { KERVAN_TASKS_REDIS_URL: redis.url, KERVAN_TASKS_STORE_TIMEOUT_MS: String(TIMEOUT_MS) });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await redis?.stop();
});

const readyz = async () => (await fetch(new URL("/readyz", server.url))).status;

async function until(what: string, check: () => Promise<boolean>, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never: ${what}`);
}

describe("the Redis task store during an outage", () => {
  it("answers while the store is down, reports not ready, logs state changes once, and loses nothing acknowledged", async () => {
    expect(await readyz()).toBe(200);
    const job = await rpc(server.url, "tools/call", { name: "long_job", arguments: { pidfile: join(dir, "a.pid"), seconds: 1 } });
    expect(job.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = String(job.result!.taskId);

    await redis.kill();
    await until("/readyz 503", async () => (await readyz()) === 503);
    // Answered while Redis is still down (it comes back only below), so the call did not wait for it;
    // how long the answer takes against the store timeout is measured by the soak, not asserted here.
    const refused = await rpc(server.url, "tools/call", { name: "long_job", arguments: { pidfile: join(dir, "b.pid"), seconds: 0 } });
    expect(refused.status).toBe(503);
    expect(refused.error?.message).toMatch(/task store \(redis at redis:\/\/127\.0\.0\.1:\d+\/?\) is unreachable/);
    const read = await rpc(server.url, "tasks/get", { taskId });
    expect(read.error?.message).toContain("task store");
    // The job finishes while Redis is down; its end is written once Redis is back.
    await new Promise((r) => setTimeout(r, 2500));

    await redis.restart();
    await until("/readyz 200", async () => (await readyz()) === 200);
    const done = await waitStatus(server.url, taskId, ["completed", "failed", "cancelled"]);
    expect(done.status).toBe("completed");
    expect(JSON.stringify(done.result)).toContain("done");

    const log = server.stderr();
    expect(log).not.toMatch(/\n\s+at /);
    const storeLines = log.split("\n").filter((l) => /task store/.test(l));
    expect(storeLines.filter((l) => /unreachable/.test(l) && !/tools\/call|tasks\/get/.test(l)).length).toBeLessThanOrEqual(2);
    expect(storeLines.some((l) => /reachable again/.test(l))).toBe(true);
  });
});
