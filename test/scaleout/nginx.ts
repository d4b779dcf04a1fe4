// nginx (the Debian package) in front of the replicas, with the config `kervan deploy --target nginx`
// writes, wrapped in a main config that keeps everything (pid, logs, temp files) in a temp folder.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./paths.js";

export interface Nginx {
  port: number;
  dir: string;
  config: string;
  proc: ChildProcess;
  /** access log lines: call id, upstream address(es), upstream status, status */
  accessLog(): string[];
  /** Marks these upstreams `down` (and the rest up) in the config and reloads nginx gracefully. */
  setDown(down: Set<string>): void;
  stop(): Promise<void>;
}

export function nginxBinary(): string {
  const found = spawnSync("sh", ["-c", "command -v nginx || ls /usr/sbin/nginx"], { encoding: "utf8" });
  const path = found.stdout.trim().split("\n")[0];
  if (found.status !== 0 || !path) throw new Error("nginx is not installed: install the Debian package `nginx` (apt-get install nginx)");
  return path;
}

export async function startNginx(server: string, outRoot: string, upstreams: string[], port: number): Promise<Nginx> {
  const bin = nginxBinary();
  const dir = mkdtempSync(join(tmpdir(), "kervan-nginx-"));
  const deployDir = join(dir, "deploy");
  const run = spawnSync(process.execPath, [join(REPO, "bin/kervan.mjs"), "deploy", server, "--target", "nginx", "--out", outRoot, "--dest", deployDir, "--upstreams", upstreams.join(","), "--listen", `127.0.0.1:${port}`], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`kervan deploy failed:\n${run.stdout}${run.stderr}`);
  const snippet = join(deployDir, "nginx.conf");
  for (const t of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, t));
  const main = [
    "worker_processes 2;",
    `pid ${join(dir, "nginx.pid")};`,
    `error_log ${join(dir, "error.log")} warn;`,
    "daemon off;",
    "events { worker_connections 4096; }",
    "http {",
    `  client_body_temp_path ${join(dir, "client_body")};`,
    `  proxy_temp_path ${join(dir, "proxy")};`,
    `  fastcgi_temp_path ${join(dir, "fastcgi")};`,
    `  uwsgi_temp_path ${join(dir, "uwsgi")};`,
    `  scgi_temp_path ${join(dir, "scgi")};`,
    "  log_format calls '$http_x_call_id $upstream_addr $upstream_status $status';",
    `  access_log ${join(dir, "access.log")} calls;`,
    `  include ${snippet};`,
    "}",
    "",
  ].join("\n");
  const config = join(dir, "nginx.conf");
  writeFileSync(config, main);
  const proc = spawn(bin, ["-p", dir, "-c", config], { stdio: ["ignore", "ignore", "pipe"] });
  const original = readFileSync(snippet, "utf8");
  let err = "";
  proc.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  // Ready once it answers on its port (an answer is the event we wait on).
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited with ${proc.exitCode}: ${err}${readFileSync(join(dir, "error.log"), "utf8")}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    port,
    dir,
    config: readFileSync(snippet, "utf8"),
    proc,
    setDown(down) {
      const text = original.replace(/^(\s*server (\S+) [^;]*);$/gm, (line, head: string, addr: string) => (down.has(addr) ? `${head} down;` : line));
      writeFileSync(snippet, text);
      const reload = spawnSync(bin, ["-p", dir, "-c", config, "-s", "reload"], { encoding: "utf8" });
      if (reload.status !== 0) throw new Error(`nginx reload failed: ${reload.stderr}`);
    },
    accessLog: () => readFileSync(join(dir, "access.log"), "utf8").split("\n").filter(Boolean),
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = once(proc, "exit");
      proc.kill("SIGQUIT");
      await exited;
    },
  };
}
