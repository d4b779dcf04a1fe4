// The task phases of `npm run soak`: a generated server with the Redis task store (test/soak/soak-tasks.yaml)
// flooded by many principals (one loopback source address each) past its caps, with Redis killed and
// restarted mid-soak (persisted, so it comes back with what it acknowledged). Measured: the server's
// RSS, the longest answer (never longer than the store timeout plus slack), /readyz against Redis's
// real state, and every acknowledged task read back completed (none lost).
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { startRedis } from "../helpers/redis.js";

const STORE_TIMEOUT_MS = 2000;
const SLACK_MS = 1500;
const PRINCIPALS = 20;
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };

type Answer = { status: number; result?: Record<string, unknown>; error?: { code: number; message: string }; ms: number };

export interface TaskPhaseReport {
  lines: string[];
  failed: boolean;
}

/**
 * Starts Redis and the task server (before the main load: the generator runs synchronously here), and
 * returns the phases to run alongside it.
 */
export async function prepareTaskPhases(repo: string, out: string, minutes: number, say: (s: string) => void): Promise<() => Promise<TaskPhaseReport>> {
  const redis = await startRedis({ persist: true });
  execFileSync(process.execPath, [join(repo, "bin/kervan.mjs"), "gen", join(repo, "test/soak/soak-tasks.yaml"), "--out", out], { stdio: ["ignore", "ignore", "inherit"] });
  const env = { ...process.env, KERVAN_TASKS_REDIS_URL: redis.url, KERVAN_TASKS_STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS) };
  const server = spawn(process.execPath, [join(out, "soak-tasks/server.mjs"), "--http", "0", "--host", "127.0.0.1"], { stdio: ["ignore", "ignore", "pipe"], env });
  let log = "";
  server.stderr!.on("data", (c: Buffer) => (log += c.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    const t = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(log);
      if (m) clearInterval(t), resolve(new URL(m[1]!));
    }, 50);
    server.once("exit", (code) => reject(new Error(`task server exited with ${code}: ${log}`)));
  });
  const pid = server.pid!;
  const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  let nextId = 1;
  const rpc = (method: string, params: Record<string, unknown>, from: string): Promise<Answer> => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: META } });
    const name = method === "tools/call" ? String(params.name) : String(params.taskId);
    const headers = { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": method, "mcp-name": name };
    const t = performance.now();
    return new Promise((resolve) => {
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, localAddress: from }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c));
        res.on("end", () => {
          const ms = performance.now() - t;
          try {
            const msg = JSON.parse(text);
            resolve({ status: res.statusCode ?? 0, result: msg.result, error: msg.error, ms });
          } catch {
            resolve({ status: res.statusCode ?? 0, error: { code: 0, message: `not JSON: ${text.slice(0, 100)}` }, ms });
          }
        });
      });
      req.on("error", (e) => resolve({ status: 0, error: { code: 0, message: e.message }, ms: performance.now() - t }));
      req.end(body);
    });
  };

  return () => flood({ url, rss, rpc, redis, log: () => log, stop: () => server.kill("SIGTERM"), exited: new Promise((r) => server.once("exit", r)) }, minutes, say);
}

interface Target {
  url: URL;
  rss: () => number;
  rpc: (method: string, params: Record<string, unknown>, from: string) => Promise<Answer>;
  redis: Awaited<ReturnType<typeof startRedis>>;
  log: () => string;
  stop: () => void;
  exited: Promise<unknown>;
}

async function flood({ url, rss, rpc, redis, log: logText, stop, exited }: Target, minutes: number, say: (s: string) => void): Promise<TaskPhaseReport> {
  const counts = { acknowledged: 0, completed: 0, refusedPrincipal: 0, refusedTotal: 0, storeErrors: 0, lost: 0, otherErrors: 0 };
  const others: string[] = [];
  const lostWhy: string[] = [];
  let longest = 0;
  let redisUp = true;
  const readyz = { samples: 0, dishonest: 0, toNotReadyMs: NaN, toReadyMs: NaN };
  const rssSamples: number[] = [rss()];
  const deadline = Date.now() + minutes * 60_000;

  const note = (a: Answer) => {
    longest = Math.max(longest, a.ms);
    if (a.status === 503 && a.error?.message.includes("task store")) return (counts.storeErrors++, true);
    return false;
  };
  // Each principal paces itself a little (and more after a refusal), so the flood shares the machine with the main load.
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function principal(n: number): Promise<void> {
    const from = `127.0.0.${n + 2}`;
    const pending: string[] = [];
    let i = 0;
    // The slow half starts once the fast half has had time to meet its per-principal cap.
    if (n >= PRINCIPALS / 2) await pause(5000);
    while (Date.now() < deadline) {
      const made = await rpc("tools/call", { name: "quick_job", arguments: { text: `p${n} job ${i++}` } }, from);
      if (made.result?.resultType === "task") {
        counts.acknowledged++;
        pending.push(String(made.result.taskId));
        // Half the principals are fast (they meet the per-principal cap), half slow (they meet the total one).
        await pause(n < PRINCIPALS / 2 ? 20 : 300);
      } else if (note(made)) await pause(100);
      else {
        const text = JSON.stringify(made.result?.content ?? made.error);
        if (text.includes("this caller already keeps")) counts.refusedPrincipal++;
        else if (text.includes("the server already keeps")) counts.refusedTotal++;
        else (counts.otherErrors++, others.push(text.slice(0, 160)));
        await pause(250);
      }
      // Read the acknowledged tasks back until each is completed.
      for (const taskId of pending.splice(0)) {
        const read = await rpc("tasks/get", { taskId }, from);
        const status = read.result?.status;
        if (status === "completed") counts.completed++;
        else if (status === "working" || note(read)) pending.push(taskId);
        else (counts.lost++, lostWhy.push(JSON.stringify(read.result ?? read.error).slice(0, 160)));
      }
    }
    // After the load: whatever is still pending must complete (Redis is up again by now).
    for (let tries = 0; pending.length > 0 && tries < 100; tries++) {
      for (const taskId of pending.splice(0)) {
        const read = await rpc("tasks/get", { taskId }, from);
        if (read.result?.status === "completed") counts.completed++;
        else if (read.result?.status === "working" || note(read)) pending.push(taskId);
        else (counts.lost++, lostWhy.push(JSON.stringify(read.result ?? read.error).slice(0, 160)));
      }
      if (pending.length) await new Promise((r) => setTimeout(r, 200));
    }
    counts.lost += pending.length;
  }

  // /readyz against Redis's real state: 503 within a second of the kill, 200 within a few of the restart.
  let changedAt = Date.now();
  let seenSince = false;
  const probe = setInterval(() => {
    const at = Date.now();
    void fetch(new URL("/readyz", url)).then((r) => {
      readyz.samples++;
      const ready = r.status === 200;
      if (ready !== redisUp && at - changedAt > (redisUp ? 5000 : 1000)) readyz.dishonest++;
      if (ready === redisUp && !seenSince) {
        seenSince = true;
        if (!redisUp) readyz.toNotReadyMs = at - changedAt;
        else if (changedAt !== 0) readyz.toReadyMs = at - changedAt;
      }
    }, () => undefined);
  }, 100);
  const sampler = setInterval(() => rssSamples.push(rss()), Math.max(2000, (minutes * 60_000) / 30));

  // The outage: Redis killed at 40% of the run, started again 15 s later (or sooner in a short run).
  const outageMs = Math.min(15_000, minutes * 60_000 * 0.25);
  const outage = (async () => {
    await new Promise((r) => setTimeout(r, minutes * 60_000 * 0.4));
    say(`task phase: killing Redis for ${(outageMs / 1000).toFixed(0)} s`);
    await redis.kill();
    redisUp = false;
    changedAt = Date.now();
    seenSince = false;
    await new Promise((r) => setTimeout(r, outageMs));
    await redis.restart();
    redisUp = true;
    changedAt = Date.now();
    seenSince = false;
    say("task phase: Redis is back");
  })();

  await Promise.all([outage, ...Array.from({ length: PRINCIPALS }, (_, n) => principal(n))]);
  clearInterval(probe);
  clearInterval(sampler);
  rssSamples.push(rss());
  const log = logText();
  const stateLines = log.split("\n").filter((l) => /the task store \(redis/.test(l) && /is unreachable \(|reachable again/.test(l));
  const storeLines = stateLines.length;
  const stacks = (log.match(/\n\s+at /g) ?? []).length;
  stop();
  await exited;
  await redis.stop();

  const failed = storeLines > 2 || counts.lost > 0 || counts.otherErrors > 0 || readyz.dishonest > 0 || longest > STORE_TIMEOUT_MS + SLACK_MS || stacks > 0;
  const lines = [
    `task flood: ${PRINCIPALS} principals, caps 10 per principal / 150 in all; acknowledged ${counts.acknowledged}, read back completed ${counts.completed}, lost ${counts.lost}`,
    `  refused past the caps: ${counts.refusedPrincipal} (per principal), ${counts.refusedTotal} (in all); store errors during the outage: ${counts.storeErrors}; other errors: ${counts.otherErrors}`,
    `  longest answer: ${longest.toFixed(0)} ms (store timeout ${STORE_TIMEOUT_MS} ms)`,
    `  task server RSS: start ${rssSamples[0]!.toFixed(1)} MiB, highest ${Math.max(...rssSamples).toFixed(1)} MiB, end ${rssSamples.at(-1)!.toFixed(1)} MiB`,
    `redis outage: ${(outageMs / 1000).toFixed(0)} s; /readyz 503 ${readyz.toNotReadyMs.toFixed(0)} ms after the kill, 200 ${readyz.toReadyMs.toFixed(0)} ms after the restart; ${readyz.dishonest} dishonest of ${readyz.samples} probes`,
    `  store state lines in the log: ${storeLines}; stack traces: ${stacks}`,
    ...stateLines.map((l) => `    ${l.slice(0, 200)}`),
    ...(others.length ? [`  first other errors: ${[...new Set(others)].slice(0, 3).join(" | ")}`] : []),
    ...(lostWhy.length ? [`  first lost: ${[...new Set(lostWhy)].slice(0, 3).join(" | ")}`] : []),
  ];
  return { lines, failed };
}
