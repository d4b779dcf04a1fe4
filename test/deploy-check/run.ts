// npm run deploy-check: the artifacts `kervan deploy` writes, run for real with podman (Debian's, runc).
//   1. Images: node:20-bookworm-slim made locally (debootstrap + the host's node; no registry is reachable),
//      then each server's generated Dockerfile built with the build command `kervan deploy` printed.
//   2. Containers: each started with the printed run command, /readyz awaited, a tool of each kind called
//      through the official MCP client with the bearer token (sandboxed exec included); a sandboxed image
//      started without the runtime options it needs refuses to start, naming them.
//   3. Kubernetes: the manifests played with `podman kube play`, secrets from a podman secret, a tool called.
//   4. nginx: every generated config through `nginx -t`, calls proxied by the real nginx to the containers.
//   5. Compose: a task-keeping server's compose file (3 replicas, nginx, Redis) brought up with Debian's
//      podman-compose as `kervan deploy` printed it (up --build -d, then down): a task created through one
//      replica (reached by its address on the compose network) is read and cancelled through others, and a
//      65 s call answers through nginx.
// Only loopback addresses are published or listened on. Exit code 1 when anything does not hold.
import { spawnSync } from "node:child_process";
import { request } from "node:http";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, parseAllDocuments, stringify } from "yaml";
import { startNginx, nginxBinary } from "../scaleout/nginx.js";
import { freePort } from "../scaleout/replicas.js";
import { ensureNodeBase, ensureServiceImages, imageSize, must, PODMAN_ENV, podman, removeContainer } from "./podman.js";
import { callAll, connect, SERVERS, SRV_FILES, startUpstream, waitReady } from "./servers.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KERVAN = join(REPO, "bin/kervan.mjs");
const work = mkdtempSync(join(tmpdir(), "kervan-deploy-check-"));
const srv = join(work, "srv");
const problems: string[] = [];
const times: string[] = [];
const sizes: string[] = [];
const containers: string[] = [];
const cleanups: (() => void)[] = [];
const say = (s: string) => process.stdout.write(s + "\n");
const token = randomBytes(16).toString("hex");

function kervan(args: string[]): string {
  const r = spawnSync(process.execPath, [KERVAN, ...args], { cwd: REPO, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`kervan ${args.join(" ")} failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

async function phase(name: string, fn: () => Promise<void> | void): Promise<void> {
  const t0 = performance.now();
  try {
    await fn();
  } catch (err) {
    problems.push(`${name}: ${(err as Error).stack ?? err}`);
  }
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  times.push(`${name}: ${s} s`);
  say(`-- ${name}: ${s} s`);
}

/** The lines under "next:" that `kervan deploy` printed. */
function nextSteps(stdout: string): string[] {
  return stdout.split("\nnext:\n")[1].split("\n").map((l) => l.trim()).filter(Boolean);
}

interface Deployed {
  name: string;
  outDir: string;
  image: string;
  port: number;
  sandboxed: boolean;
}
const deployed: Deployed[] = [];

function outDirOf(name: string): string {
  if (name !== "starter") return join(REPO, "out");
  const specs = join(work, "specs");
  kervan(["init", "starter", "--dir", specs]);
  kervan(["gen", join(specs, "starter.yaml"), "--out", join(work, "out")]);
  return join(work, "out");
}

/** Builds the image with the printed build command (podman for docker, no pulls). */
function buildPrinted(name: string, steps: string[]): string {
  const build = steps.find((l) => l.startsWith("docker build "))!.split(" ");
  const t0 = performance.now();
  must(["build", "--pull=never", ...build.slice(2)], { cwd: REPO });
  const image = build[build.indexOf("-t") + 1];
  times.push(`  build ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  sizes.push(`${image}: ${(imageSize(image) / 1e6).toFixed(1)} MB`);
  return image;
}

/** The printed run command, detached on the host's loopback: `-p` dropped for --network host, the listen address appended. */
function runPrinted(name: string, steps: string[], port: number, extraEnv: Record<string, string>, opts: { sandboxOpts: boolean }): string {
  const run = steps.find((l) => l.startsWith("docker run "))!.split(" ");
  const image = run.at(-1)!;
  const flags: string[] = [];
  for (let i = 2; i < run.length - 1; i++) {
    if (run[i] === "-p") i++;
    else if (run[i] === "--rm") continue;
    else if (!opts.sandboxOpts && run[i] === "--security-opt" && /^(systempaths|seccomp|apparmor)=/.test(run[i + 1])) i++;
    else flags.push(run[i]);
  }
  const cname = `kervan-dc-${name}${opts.sandboxOpts ? "" : "-nosandbox"}`;
  removeContainer(cname);
  containers.push(cname);
  const env = Object.entries(extraEnv).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  must(["run", "-d", "--name", cname, "--network", "host", "-v", `${srv}:/srv:ro`, ...env, ...flags, image, "--http", `127.0.0.1:${port}`], { env: { ...PODMAN_ENV, ...tokenEnv(steps) } });
  return cname;
}

/** The token variables the printed `export` line names, all set to this run's token. */
function tokenEnv(steps: string[]): Record<string, string> {
  const line = steps.find((l) => l.startsWith("export ")) ?? "";
  return Object.fromEntries([...line.matchAll(/([A-Z0-9_]+)=\.\.\./g)].map((m) => [m[1], m[1].endsWith("_TOKEN") ? token : ""]));
}

const alive = (cname: string) => podman(["inspect", "--format", "{{.State.Running}}", cname]).stdout.trim() === "true";
const logs = (cname: string) => podman(["logs", cname]).stderr + podman(["logs", cname]).stdout;

async function containersPhase(upstream: string): Promise<void> {
  for (const s of SERVERS) {
    const outDir = outDirOf(s.name);
    const dest = join(work, "deploy", s.name);
    const steps = nextSteps(kervan(["deploy", s.name, "--target", "docker", "--auth", "bearer", "--out", outDir, "--dest", dest]));
    const image = buildPrinted(s.name, steps);
    const port = await freePort();
    const sandboxed = readFileSync(join(dest, "Dockerfile"), "utf8").includes("bubblewrap");
    const cname = runPrinted(s.name, steps, port, s.env(upstream), { sandboxOpts: true });
    const url = `http://127.0.0.1:${port}`;
    if (!(await waitReady(`${url}/readyz`, () => !alive(cname)))) {
      problems.push(`${s.name}: never ready:\n${logs(cname)}`);
      continue;
    }
    deployed.push({ name: s.name, outDir, image, port, sandboxed });
    const unauthorized = await fetch(`${url}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    if (unauthorized.status !== 401) problems.push(`${s.name}: a request without the token got ${unauthorized.status}, not 401`);
    const client = await connect(`${url}/mcp`, token);
    problems.push(...(await callAll(client, s.calls, `${s.name} container`)));
    await client.close();
    const isolation = logs(cname).split("\n").find((l) => l.includes("isolation:"));
    if (sandboxed && !isolation?.includes("bubblewrap")) problems.push(`${s.name}: no isolation line at start:\n${logs(cname)}`);
    say(`${s.name}: ready on ${url}, ${s.calls.length} calls answered${isolation ? `; ${isolation.slice(isolation.indexOf("isolation:"))}` : ""}`);
    if (sandboxed) await refusesWithoutPrivileges(s.name, steps, s.env(upstream));
  }
}

/** The same image without the runtime options docs/deploy.md states: it must exit at once, naming them. */
async function refusesWithoutPrivileges(name: string, steps: string[], env: Record<string, string>): Promise<void> {
  const cname = runPrinted(name, steps, await freePort(), env, { sandboxOpts: false });
  for (let i = 0; i < 100 && alive(cname); i++) await new Promise((r) => setTimeout(r, 100));
  const code = podman(["inspect", "--format", "{{.State.ExitCode}}", cname]).stdout.trim();
  const text = logs(cname);
  if (alive(cname) || code === "0" || !text.includes("unmask=/proc/*")) problems.push(`${name}: without the sandbox options it did not refuse naming them (exit ${code}):\n${text}`);
  else say(`${name}: without the sandbox options it refuses to start (exit ${code}): ${text.split("\n").find((l) => l.includes("unmask"))?.slice(0, 200)}…`);
}

async function kubePhase(): Promise<void> {
  for (const d of deployed.filter((x) => x.name === "validator" || x.name === "repo-explorer")) {
    const dest = join(work, "kube", d.name);
    kervan(["deploy", d.name, "--target", "kubernetes", "--auth", "bearer", "--replicas", "1", "--out", d.outDir, "--dest", dest, "--image", `localhost/${d.image}`]);
    const docs = parseAllDocuments(readFileSync(join(dest, "kubernetes.yaml"), "utf8")).map((x) => x.toJS());
    // podman plays Deployments (and reads Services); it has no PodDisruptionBudget or autoscaler. No cluster
    // network either: the test publishes the container port on loopback (a cluster would use the Service).
    const played = docs.filter((x) => x.kind === "Deployment" || x.kind === "Service");
    const hostPort = await freePort();
    const container = played[0].spec.template.spec.containers[0];
    container.ports[0] = { ...container.ports[0], hostPort, hostIP: "127.0.0.1" };
    const file = join(dest, "played.yaml");
    writeFileSync(file, played.map((x) => "---\n" + stringify(x)).join(""));
    const secretName = `${d.name}-secrets`;
    const keys = container.env.filter((e: { valueFrom?: { secretKeyRef?: unknown } }) => e.valueFrom?.secretKeyRef).map((e: { name: string }) => e.name);
    podman(["secret", "rm", secretName]);
    writeFileSync(join(dest, "secret.json"), JSON.stringify(Object.fromEntries(keys.map((k: string) => [k, Buffer.from(token).toString("base64")]))));
    must(["secret", "create", secretName, join(dest, "secret.json")]);
    podman(["kube", "down", file]);
    cleanups.push(() => podman(["kube", "down", file]), () => podman(["secret", "rm", secretName]));
    must(["kube", "play", file]);
    const cname = `${d.name}-pod-0-${d.name}`;
    const ready = await waitReady(`http://127.0.0.1:${hostPort}/readyz`, () => !alive(cname), 30_000);
    if (d.sandboxed) {
      // podman 4.3 reads procMount but does not apply it: the sandboxed server must refuse, naming it.
      const text = logs(cname);
      if (ready || !text.includes("procMount: Unmasked")) problems.push(`${d.name} (kube play): expected a refusal naming procMount: Unmasked:\n${text}`);
      else say(`${d.name} (kube play): podman 4.3 does not apply procMount: Unmasked, and the server refuses naming it`);
      continue;
    }
    if (!ready) {
      problems.push(`${d.name} (kube play): never ready:\n${logs(cname)}`);
      continue;
    }
    const client = await connect(`http://127.0.0.1:${hostPort}/mcp`, token);
    problems.push(...(await callAll(client, SERVERS.find((s) => s.name === d.name)!.calls, `${d.name} kube play`)));
    await client.close();
    say(`${d.name} (kube play): ready, token from the podman secret ${secretName}, tool answered`);
  }
}

async function nginxPhase(): Promise<void> {
  for (const d of deployed) {
    const nginx = await startNginx(d.name, d.outDir, [`127.0.0.1:${d.port}`], await freePort());
    try {
      const main = join(nginx.dir, "nginx.conf");
      const t = spawnSync(nginxBinary(), ["-t", "-p", nginx.dir, "-c", main], { encoding: "utf8" });
      if (t.status !== 0) problems.push(`${d.name}: nginx -t failed: ${t.stderr}`);
      const client = await connect(`http://127.0.0.1:${nginx.port}/mcp`, token);
      problems.push(...(await callAll(client, SERVERS.find((s) => s.name === d.name)!.calls.slice(0, 1), `${d.name} via nginx`)));
      await client.close();
      say(`${d.name}: nginx -t ok, a call proxied through nginx answered`);
    } finally {
      await nginx.stop();
    }
  }
}

/** A JSON-RPC request over HTTP; `host` is the Host header a peer on the compose network sends. */
function rpc(url: string, method: string, params: Record<string, unknown>, host?: string): Promise<Record<string, any>> {
  const name = typeof params.name === "string" ? params.name : typeof params.taskId === "string" ? params.taskId : undefined;
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name ? { "mcp-name": name } : {}), ...(host ? { host } : {}) };
  return new Promise((done, fail) => {
    const req = request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => (text += c));
      res.on("end", () => {
        const data = text.startsWith("event:") ? text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).at(-1)! : text;
        try {
          done(JSON.parse(data));
        } catch {
          fail(new Error(`${method} on ${url} answered ${res.statusCode}: ${text.slice(0, 300)}`));
        }
      });
    });
    req.on("error", fail).end(body);
  });
}

/** The printed `docker compose -f FILE up ...` line, run with podman-compose (Debian's) under a fixed project name. */
function composeCommand(printed: string[], env: Record<string, string>): (args: string[]) => void {
  const file = printed.find((l) => l.startsWith("docker compose -f "))!.split(" ")[3];
  return (args) => {
    const r = spawnSync("podman-compose", ["-p", COMPOSE_PROJECT, "-f", file, ...args], { encoding: "utf8", env: { ...PODMAN_ENV, ...env }, maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`podman-compose ${args.join(" ")} failed (${r.status}):\n${(r.stderr + r.stdout).slice(-4000)}`);
  };
}
const COMPOSE_PROJECT = "kervan-dc-compose";

/** The project's containers of one compose service, in replica order. */
function serviceContainers(service: string): string[] {
  const names = must(["ps", "-a", "--filter", `label=io.podman.compose.project=${COMPOSE_PROJECT}`, "--filter", `label=com.docker.compose.service=${service}`, "--format", "{{.Names}}"]);
  return names.split("\n").filter(Boolean).sort();
}
const ipOf = (cname: string) => must(["inspect", "--format", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", cname]);

async function composePhase(): Promise<void> {
  kervan(["gen", join(REPO, "test/deploy-check/task-keeper.yaml"), "--out", join(work, "out")]);
  const listen = String(await freePort());
  const dest = join(work, "compose");
  const printed = nextSteps(kervan(["deploy", "task-keeper", "--target", "compose", "--auth", "bearer", "--replicas", "3", "--listen", listen, "--out", join(work, "out"), "--dest", dest]));
  say(`compose: kervan deploy printed: ${printed.join(" | ")}`);
  const env: Record<string, string> = { KERVAN_STATE_KEY: randomBytes(32).toString("hex"), KERVAN_TASKS_REDIS_URL: "redis://redis:6379", TASK_KEEPER_TOKEN: token };
  const compose = composeCommand(printed, env);
  const upArgs = printed.find((l) => l.startsWith("docker compose -f "))!.split(" ").slice(4);
  cleanups.unshift(() => {
    try {
      compose(["down", "-t", "2"]);
    } catch (err) {
      problems.push(`compose: ${(err as Error).message}`);
    }
    podman(["network", "rm", "-f", `${COMPOSE_PROJECT}_default`]); // podman-compose 1.0.3's down leaves it
  });
  const t0 = performance.now();
  compose(upArgs);
  times.push(`  podman-compose ${upArgs.join(" ")}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const image = parse(readFileSync(join(dest, "compose.yaml"), "utf8")).services["task-keeper"].image;
  sizes.push(`${image}: ${(imageSize(image) / 1e6).toFixed(1)} MB`);
  const replicas = serviceContainers("task-keeper");
  const [nginx] = serviceContainers("nginx");
  if (replicas.length !== 3 || !nginx || serviceContainers("redis").length !== 1) throw new Error(`podman-compose started ${replicas.length} replicas, nginx ${nginx ?? "none"}`);
  // Each replica by its address on the compose network (host-local bridge), with the Host a peer there sends.
  const replica = (i: number) => `http://${ipOf(replicas[i])}:8080/mcp`;
  for (const [i, cname] of replicas.entries()) {
    if (!(await waitReady(replica(i).replace(/mcp$/, "readyz"), () => !alive(cname)))) throw new Error(`${cname} never ready:\n${logs(cname)}`);
  }
  const nginxTest = podman(["exec", nginx, "nginx", "-t"]);
  if (nginxTest.status !== 0) problems.push(`compose: nginx -t of the generated config (upstream task-keeper:8080) failed: ${nginxTest.stderr}`);
  else say(`compose: podman-compose started ${replicas.join(", ")} and ${nginx}; nginx -t in it: ${nginxTest.stderr.trim().split("\n").at(-1)}`);
  const front = `http://127.0.0.1:${listen}`;
  if (!(await waitReady(`${front}/readyz`, () => !alive(nginx)))) throw new Error(`nginx never ready:\n${logs(nginx)}`);

  // A plain call longer than nginx's default 60 s read timeout, through nginx, while the task runs.
  const long = (async () => {
    const t = performance.now();
    const client = await connect(`${front}/mcp`, token);
    const result = await client.callTool({ name: "wait_seconds", arguments: { seconds: 65 } }, { timeout: 150_000 });
    await client.close();
    return { result, seconds: (performance.now() - t) / 1000 };
  })();
  const host = "task-keeper:8080";
  const created = await rpc(replica(0), "tools/call", { name: "wait_seconds", arguments: { seconds: 100 } }, host);
  const taskId = created.result?.taskId;
  if (created.result?.resultType !== "task" || typeof taskId !== "string") throw new Error(`no task created: ${JSON.stringify(created)}`);
  const read = await rpc(replica(1), "tasks/get", { taskId }, host);
  if (read.result?.status !== "working") problems.push(`compose: replica 2 read the task as ${JSON.stringify(read)}`);
  const cancelled = await rpc(replica(2), "tasks/cancel", { taskId }, host);
  if (cancelled.error) problems.push(`compose: replica 3 could not cancel: ${JSON.stringify(cancelled)}`);
  let status = "";
  for (let i = 0; i < 100 && status !== "cancelled"; i++) {
    status = (await rpc(`${front}/mcp`, "tasks/get", { taskId })).result?.status;
    if (status !== "cancelled") await new Promise((r) => setTimeout(r, 100));
  }
  if (status !== "cancelled") problems.push(`compose: after the cancel through replica 3 the task reads ${status} through nginx`);
  else say(`compose: task ${taskId} created on ${replicas[0]}, read working on ${replicas[1]}, cancelled on ${replicas[2]}, read cancelled through nginx`);
  const { result, seconds } = await long;
  const ok = !result.isError && JSON.stringify(result.structuredContent).includes('"exitCode":0');
  if (!ok || seconds < 60) problems.push(`compose: the 65 s call through nginx answered ${JSON.stringify(result).slice(0, 300)} after ${seconds.toFixed(1)} s`);
  else say(`compose: a ${seconds.toFixed(1)} s call answered through nginx (proxy_read_timeout from the spec)`);
}

async function main(): Promise<number> {
  const t0 = performance.now();
  mkdirSync(srv, { recursive: true });
  for (const [f, text] of Object.entries(SRV_FILES)) writeFileSync(join(srv, f), text);
  const upstream = await startUpstream();
  try {
    await phase("base images", () => {
      ensureNodeBase(say);
      ensureServiceImages(say);
    });
    await phase("containers", () => containersPhase(upstream.url));
    await phase("podman kube play", kubePhase);
    await phase("nginx", nginxPhase);
    await phase("compose topology", composePhase);
  } finally {
    for (const c of containers) removeContainer(c);
    for (const c of cleanups) c();
    upstream.server.close();
    rmSync(work, { recursive: true, force: true });
  }
  say(`wall times: ${times.join("; ")}; total ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  say(`image sizes: ${sizes.join("; ")}`);
  for (const p of problems) say(`PROBLEM ${p}`);
  say(problems.length ? `deploy-check: ${problems.length} problem(s)` : "deploy-check: every artifact ran as written");
  return problems.length ? 1 : 0;
}

process.exitCode = await main();
