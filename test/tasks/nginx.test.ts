// Three Redis-backed replicas behind nginx, configured by `kervan deploy --target nginx`: a task started
// through the balancer is polled and cancelled through it while nginx spreads those requests over the
// replicas, and the cancel still reaches the replica running the job.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { generateJobs, rpc } from "../helpers/rpc.js";
import { startNginx, type Nginx } from "../scaleout/nginx.js";
import { freePort } from "../scaleout/replicas.js";
import { waitDead } from "../kinds/exec/helpers.js";

let redis: RedisServer;
let nginx: Nginx;
let replicas: HttpServer[] = [];
let url: string;
let outDir: string;

beforeAll(async () => {
  redis = await startRedis();
  const bundle = generateJobs("redis");
  outDir = dirname(bundle);
  const env = { KERVAN_TASKS_REDIS_URL: redis.url, KERVAN_TASKS_LEASE_MS: "2000" };
  replicas = await Promise.all([0, 1, 2].map(() => startHttpServer(bundle, ["--host", "127.0.0.1"], env)));
  const upstreams = replicas.map((r) => new URL(r.url).host);
  nginx = await startNginx("jobs", dirname(outDir), upstreams, await freePort());
  url = `http://127.0.0.1:${nginx.port}/mcp`;
}, 120_000);
afterAll(async () => {
  await nginx?.stop();
  await Promise.all(replicas.map((r) => r.stop()));
  await redis?.stop();
});

describe("tasks behind nginx", () => {
  it("polls and cancels a task through the balancer, whichever replica answers", async () => {
    const pidfile = join(outDir, "behind-nginx.pid");
    const created = await rpc(url, "tools/call", { name: "long_job", arguments: { pidfile, seconds: 60 } });
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = String(created.result!.taskId);
    for (let i = 0; i < 6; i++) expect((await rpc(url, "tasks/get", { taskId })).result).toMatchObject({ taskId, status: "working" });
    for (let i = 0; i < 400 && !(existsSync(pidfile) && readFileSync(pidfile, "utf8").trim()); i++) await new Promise((r) => setTimeout(r, 25));
    const pid = Number(readFileSync(pidfile, "utf8").trim());
    expect((await rpc(url, "tasks/cancel", { taskId })).result).toMatchObject({ resultType: "complete" });
    expect(await waitDead(pid, 10_000)).toBe(true);
    expect((await rpc(url, "tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
    // nginx spread these requests over more than one replica.
    const upstreams = new Set(nginx.accessLog().map((l) => l.split(" ")[1]).filter((a) => a && a !== "-"));
    expect(upstreams.size).toBeGreaterThan(1);
  });
});
