// Starts a real redis-server on a free loopback port in a temporary directory (no persistence) and
// stops it. A machine without redis-server fails the test with the package to install.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RedisServer {
  url: string;
  port: number;
  proc: ChildProcess;
  /** SIGKILL, as an outage: clients see their connections drop. */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (with `persist`, the data written before is back). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface RedisOptions {
  /** Append-only file with an fsync per write, so a kill loses nothing acknowledged. */
  persist?: boolean;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function launch(port: number, dir: string, persist: boolean): Promise<ChildProcess> {
  const durability = persist ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"];
  const proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...durability, "--dir", dir], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  return new Promise<ChildProcess>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Ready to accept connections")) resolve(proc);
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.once("exit", (code) => reject(new Error(`redis-server exited with ${code}:\n${out}`)));
  });
}

async function ended(proc: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once("exit", r));
  proc.kill(signal);
  await exited;
}

export async function startRedis(opts: RedisOptions = {}): Promise<RedisServer> {
  if (spawnSync("redis-server", ["--version"]).error) {
    throw new Error("redis-server is not installed: install the Debian package redis-server (apt-get install redis-server)");
  }
  const dir = mkdtempSync(join(tmpdir(), "kervan-redis-"));
  const port = await freePort();
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    proc: await launch(port, dir, opts.persist === true),
    kill: () => ended(server.proc, "SIGKILL"),
    async restart() {
      await ended(server.proc, "SIGKILL");
      server.proc = await launch(port, dir, opts.persist === true);
    },
    async stop() {
      await ended(server.proc, "SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}
