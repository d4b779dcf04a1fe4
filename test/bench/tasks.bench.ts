// Tasks: a tasks/get round trip over HTTP with the file store and with the Redis store, each against a
// bare Redis GET from the same client process (node-redis, one connection); and the added latency of a
// task-augmented call (CreateTaskResult, then polled to completed) against the same call made plainly.
// Servers are generated from test/fixtures/tasks/jobs.yaml; Redis is a real redis-server on loopback.
import { mkdtempSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@redis/client";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { startRedis } from "../helpers/redis.js";
import { FULL_CAPS, generateJobs } from "../helpers/rpc.js";
import { interleave, median, ms, type BenchRow } from "./util.js";

const ROUNDS = 300;
const WARMUP = 30;
const CALLS_ROUNDS = 60;
const CALLS_WARMUP = 10;

/** A keep-alive 2026-07-28 JSON-RPC poster (the bare GET keeps its connection too). */
function poster(url: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let id = 1;
  const send = (method: string, params: Record<string, unknown>, caps: Record<string, unknown> = FULL_CAPS): Promise<Record<string, unknown>> => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps } } });
    const name = method === "tools/call" ? String(params.name) : String(params.taskId ?? "");
    const headers = { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name ? { "mcp-name": name } : {}) };
    return new Promise((resolve, reject) => {
      const req = request(url, { method: "POST", headers, agent }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          const msg = JSON.parse(text);
          if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
          else resolve(msg.result);
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  };
  return { send, close: () => agent.destroy() };
}

/** The taskId of a CreateTaskResult; anything else (a cap refusal is a tool error) stops the bench with its text. */
function taskIdOf(result: Record<string, unknown>): string {
  if (typeof result.taskId === "string") return result.taskId;
  throw new Error(`tools/call made no task: ${JSON.stringify(result).slice(0, 300)}`);
}

async function settled(send: ReturnType<typeof poster>["send"], taskId: string): Promise<void> {
  for (;;) {
    const got = await send("tasks/get", { taskId });
    if (got.status === "completed") return;
    if (got.status !== "working") throw new Error(`task ended ${String(got.status)}`);
  }
}

export async function benchTasks(): Promise<BenchRow[]> {
  const redis = await startRedis();
  const servers: HttpServer[] = [];
  const bare = createClient({ url: redis.url });
  await bare.connect();
  try {
    await bare.set("bench:key", JSON.stringify({ status: "completed", result: { content: [{ type: "text", text: "done" }] } }));
    const fileServer = await startHttpServer(generateJobs("file"), ["--host", "127.0.0.1"], { KERVAN_TASKS_DIR: mkdtempSync(join(tmpdir(), "kervan-bench-tasks-")) });
    const redisServer = await startHttpServer(generateJobs("redis"), ["--host", "127.0.0.1"], { KERVAN_TASKS_REDIS_URL: redis.url });
    // The augmented rounds make 140 tasks from one address, more than the default per-principal cap (100),
    // past which a call is refused with a tool error and makes no task.
    const memoryServer = await startHttpServer(generateJobs("memory"), ["--host", "127.0.0.1"], { KERVAN_TASKS_MAX_PER_PRINCIPAL: String(CALLS_ROUNDS * 4) });
    servers.push(fileServer, redisServer, memoryServer);
    const [viaFile, viaRedis, viaMemory] = [poster(fileServer.url), poster(redisServer.url), poster(memoryServer.url)];
    const job = { name: "long_job", arguments: { pidfile: "/dev/null", seconds: 0 } };
    // One finished task on each store to read back.
    const fileTask = taskIdOf(await viaFile.send("tools/call", job));
    const redisTask = taskIdOf(await viaRedis.send("tools/call", job));
    await settled(viaFile.send, fileTask);
    await settled(viaRedis.send, redisTask);

    const [getFile, getRedis, bareGet] = await interleave(
      [() => viaFile.send("tasks/get", { taskId: fileTask }).then(() => undefined), () => viaRedis.send("tasks/get", { taskId: redisTask }).then(() => undefined), () => bare.get("bench:key").then(() => undefined)],
      ROUNDS,
      WARMUP,
    );
    const [plain, created, whole] = await interleave(
      [
        () => viaMemory.send("tools/call", job, {}).then(() => undefined),
        () => viaMemory.send("tools/call", job).then(() => undefined),
        async () => {
          const taskId = taskIdOf(await viaMemory.send("tools/call", job));
          await settled(viaMemory.send, taskId);
        },
      ],
      CALLS_ROUNDS,
      CALLS_WARMUP,
    );
    for (const p of [viaFile, viaRedis, viaMemory]) p.close();
    const [mf, mr, mb, mp, mc, mw] = [getFile, getRedis, bareGet, plain, created, whole].map(median);
    return [
      { name: "tasks/get round trip, file store, vs a bare Redis GET", ratio: mf / mb, detail: `median ${ms(mf)} vs ${ms(mb)} (HTTP to a generated server reading its task files, against node-redis GET on one connection)` },
      { name: "tasks/get round trip, Redis store, vs a bare Redis GET", ratio: mr / mb, detail: `median ${ms(mr)} vs ${ms(mb)} (HTTP, then one Lua script on Redis with the lease check, against node-redis GET)` },
      { name: "task-augmented call (CreateTaskResult) vs the plain call", ratio: mc / mp, detail: `median ${ms(mc)} vs ${ms(mp)} (memory store; the task answer comes before the job runs)` },
      { name: "task-augmented call polled to completed vs the plain call", ratio: mw / mp, detail: `median ${ms(mw)} vs ${ms(mp)} (memory store; create, then tasks/get back to back until completed)` },
    ];
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await bare.close();
    await redis.stop();
  }
}
