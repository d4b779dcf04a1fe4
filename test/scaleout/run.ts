// npm run scaleout: nginx (Debian package) in front of 3 replicas of out/validator, at least 20,000
// tools/call requests from 32 concurrent clients with both protocol eras mixed.
//   Run 1: every replica restarted in turn with SIGTERM during the load: every request answered exactly
//          once (checked against the replicas' own request logs), none fails, every exit code 0.
//   Run 2: one replica killed with SIGKILL: the only failures are calls that were in flight on it
//          (nginx's access log names the upstream of each), counted and reported; none retried.
// Exit code 1 when any of that does not hold. Network: 127.0.0.1 only.
import { join } from "node:path";
import { callEntries, freePort, launch, stop, type Replica } from "./replicas.js";
import { startNginx, type Nginx } from "./nginx.js";
import { runLoad, type CallResult } from "./load.js";
import { REPO } from "./paths.js";

const BUNDLE = join(REPO, "out/validator/server.mjs");
const CLIENTS = Number(process.env.SCALEOUT_CLIENTS ?? 32);
const TOTAL = Number(process.env.SCALEOUT_CALLS ?? 21_000);
// The grace keeps a replica's listener open after SIGTERM until the load balancer has stopped sending to it.
const REPLICA_ARGS = ["--drain-ms", "10000", "--drain-grace-ms", "3000"];
const problems: string[] = [];
const say = (s: string) => process.stdout.write(s + "\n");

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

async function setup(): Promise<{ replicas: Replica[]; nginx: Nginx }> {
  const ports = [await freePort(), await freePort(), await freePort()];
  const replicas = await Promise.all(ports.map((p) => launch(BUNDLE, p, REPLICA_ARGS)));
  const nginx = await startNginx("validator", join(REPO, "out"), ports.map((p) => `127.0.0.1:${p}`), await freePort());
  if (/non_idempotent/.test(nginx.config)) problems.push("the nginx config Kervan writes retries non-idempotent requests");
  return { replicas, nginx };
}

function summarize(name: string, results: CallResult[], started: number): void {
  const failed = results.filter((r) => !r.ok);
  const eras = new Map<string, number>();
  for (const r of results) eras.set(r.era, (eras.get(r.era) ?? 0) + 1);
  const secs = (performance.now() - started) / 1000;
  say(`${name}: ${results.length} calls from ${CLIENTS} clients in ${secs.toFixed(1)} s (${Math.round(results.length / secs)}/s); eras ${[...eras].map(([e, n]) => `${e}: ${n}`).join(", ")}; failed ${failed.length}`);
}

/** Served-count of each id across every replica's request log. */
function servedCounts(replicas: Replica[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of callEntries(replicas)) counts.set(String(e.id), (counts.get(String(e.id)) ?? 0) + 1);
  return counts;
}

/**
 * What an orchestrator's endpoint controller does (Kubernetes removes a pod whose readiness fails): polls
 * every replica's /readyz and takes a replica out of nginx's rotation while it is not ready.
 */
function watchReadiness(replicas: Replica[], nginx: Nginx): { stop(): Promise<void>; reloads(): number } {
  let running = true;
  let reloads = 0;
  let down = new Set<string>();
  const loop = (async () => {
    while (running) {
      const states = await Promise.all(
        replicas.map((r) =>
          fetch(`http://127.0.0.1:${r.port}/readyz`)
            .then((res) => res.status === 200)
            .catch(() => false),
        ),
      );
      const now = new Set(replicas.filter((_, i) => !states[i]).map((r) => `127.0.0.1:${r.port}`));
      if ([...now].join() !== [...down].join()) {
        down = now;
        nginx.setDown(down);
        reloads++;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return { stop: async () => void ((running = false), await loop), reloads: () => reloads };
}

async function rollingSigterm(): Promise<void> {
  const { replicas, nginx } = await setup();
  const watcher = watchReadiness(replicas, nginx);
  const started = performance.now();
  const load = runLoad(nginx.port, CLIENTS, TOTAL, "term");
  const exits: (number | null)[] = [];
  const step = Math.floor(TOTAL / 5);
  for (let i = 0; i < replicas.length; i++) {
    await until(() => load.completed() >= step * (i + 1));
    exits.push(await stop(replicas[i], "SIGTERM"));
    await launch(BUNDLE, replicas[i].port, REPLICA_ARGS, replicas[i]);
  }
  await load.done;
  await watcher.stop();
  summarize("rolling SIGTERM", load.results, started);
  say(`  readiness watcher reloaded nginx ${watcher.reloads()} times`);
  const failed = load.results.filter((r) => !r.ok);
  for (const f of failed.slice(0, 5)) say(`  failed ${f.id} (${f.era}): status ${f.status} ${f.detail ?? ""}`);
  if (failed.length) problems.push(`rolling SIGTERM: ${failed.length} call(s) failed`);
  if (exits.some((c) => c !== 0)) problems.push(`rolling SIGTERM: exit codes ${exits.join(", ")} (expected 0)`);
  const counts = servedCounts(replicas);
  const notOnce = load.results.filter((r) => counts.get(r.id) !== 1);
  if (notOnce.length) problems.push(`rolling SIGTERM: ${notOnce.length} call(s) not served exactly once (e.g. ${notOnce[0].id}: ${counts.get(notOnce[0].id) ?? 0})`);
  const ids = new Set(load.results.map((r) => r.id));
  if (ids.size !== TOTAL || load.results.length !== TOTAL) problems.push(`rolling SIGTERM: ${load.results.length} answers for ${TOTAL} calls (${ids.size} distinct)`);
  say(`  replica restarts: ${replicas.map((r) => `:${r.port} x${r.generation - 1}`).join(", ")}; exit codes ${exits.join(", ")}; served exactly once: ${TOTAL - notOnce.length}/${TOTAL}`);
  await nginx.stop();
  await Promise.all(replicas.map((r) => stop(r, "SIGTERM")));
}

async function sigkillOne(): Promise<void> {
  const { replicas, nginx } = await setup();
  const started = performance.now();
  const load = runLoad(nginx.port, CLIENTS, TOTAL, "kill");
  await until(() => load.completed() >= Math.floor(TOTAL / 3));
  const victim = replicas[1];
  await stop(victim, "SIGKILL");
  await load.done;
  summarize("one replica SIGKILLed", load.results, started);
  const access = new Map<string, { upstream: string; status: string }>();
  for (const line of nginx.accessLog()) {
    const [id, ...rest] = line.split(" ");
    const status = rest.pop()!;
    access.set(id, { upstream: rest.slice(0, -1).join(" "), status });
  }
  const failed = load.results.filter((r) => !r.ok);
  const victimAddr = `127.0.0.1:${victim.port}`;
  const elsewhere = failed.filter((f) => access.get(f.id)?.upstream !== victimAddr);
  const counts = servedCounts(replicas);
  const twice = load.results.filter((r) => (counts.get(r.id) ?? 0) > 1);
  const retried = failed.filter((f) => (access.get(f.id)?.upstream ?? "").includes(","));
  say(`  killed :${victim.port}; failed calls: ${failed.length}, all in flight on the killed replica: ${elsewhere.length === 0 ? "yes" : "no"}; retried by nginx: ${retried.length}; served twice: ${twice.length}`);
  for (const f of failed.slice(0, 3)) say(`  failed ${f.id} (${f.era}): status ${f.status}, upstream ${access.get(f.id)?.upstream}`);
  if (elsewhere.length) problems.push(`SIGKILL: ${elsewhere.length} failure(s) not on the killed replica (e.g. ${elsewhere[0].id} via ${access.get(elsewhere[0].id)?.upstream})`);
  if (failed.length > CLIENTS) problems.push(`SIGKILL: ${failed.length} failures, more than the ${CLIENTS} calls that can be in flight`);
  if (retried.length || twice.length) problems.push(`SIGKILL: ${retried.length} failed call(s) retried, ${twice.length} served twice`);
  if (load.results.length !== TOTAL) problems.push(`SIGKILL: ${load.results.length} answers for ${TOTAL} calls`);
  await nginx.stop();
  await Promise.all(replicas.map((r) => stop(r, "SIGTERM")));
}

try {
  await rollingSigterm();
  await sigkillOne();
} catch (err) {
  problems.push(err instanceof Error ? (err.stack ?? err.message) : String(err));
}
if (problems.length) {
  say(`scaleout: FAILED\n- ${problems.join("\n- ")}`);
  process.exitCode = 1;
} else say("scaleout: ok");
