// Real generated servers for the frame properties: out/validator/server.mjs over stdio (a line reader
// that keeps every message) and over Streamable HTTP (raw POSTs on a keep-alive agent).
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";
import { FuzzFailure } from "./property.js";

/** KERVAN_FUZZ_BUNDLE points the frame properties at another bundle (an older build, to show a fix). */
export const VALIDATOR = process.env.KERVAN_FUZZ_BUNDLE ?? fileURLToPath(new URL("../../out/validator/server.mjs", import.meta.url));

export interface StdioServer {
  proc: ChildProcess;
  send(line: string): void;
  /** Every message read since the last take(), in order. */
  take(): Record<string, unknown>[];
  /** Resolves once a message with this id has arrived (rejects with a crash when the process exits). */
  waitFor(id: string | number): Promise<void>;
  stop(): Promise<void>;
}

export function startStdio(bundle = VALIDATOR, env: Record<string, string> = {}): StdioServer {
  const proc = spawn(process.execPath, [bundle], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
  let buffered = "";
  let seen: Record<string, unknown>[] = [];
  const waiters = new Map<string, () => void>();
  let exited: string | undefined;
  const fail: ((e: Error) => void)[] = [];
  proc.stderr!.resume();
  proc.stdin!.on("error", () => {});
  proc.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    let nl: number;
    while ((nl = buffered.indexOf("\n")) !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(line);
      } catch {
        msg = { __notJson: line.slice(0, 300) };
      }
      seen.push(msg);
      const key = `${typeof msg.id}:${String(msg.id)}`;
      waiters.get(key)?.();
    }
  });
  proc.on("exit", (code, signal) => {
    exited = `the server exited (code ${code}, signal ${signal})`;
    for (const f of fail.splice(0)) f(new FuzzFailure("crash", exited));
  });
  return {
    proc,
    send(line) {
      if (exited) throw new FuzzFailure("crash", exited);
      proc.stdin!.write(line + "\n");
    },
    take() {
      const out = seen;
      seen = [];
      return out;
    },
    waitFor(id) {
      const key = `${typeof id}:${String(id)}`;
      if (exited) return Promise.reject(new FuzzFailure("crash", exited));
      if (seen.some((m) => m.id === id)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        waiters.set(key, () => {
          waiters.delete(key);
          resolve();
        });
        fail.push(reject);
      });
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const done = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await done;
    },
  };
}

export interface HttpServer {
  proc: ChildProcess;
  url: URL;
  post(body: string, headers: Record<string, string>): Promise<{ status: number; body: string; type: string }>;
  stop(): Promise<void>;
}

export async function startHttp(bundle = VALIDATOR): Promise<HttpServer> {
  const proc = spawn(process.execPath, [bundle, "--http", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  const url = await new Promise<URL>((resolve, reject) => {
    proc.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(new URL(m[1]));
    });
    proc.once("exit", (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  proc.stderr!.resume();
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  return {
    proc,
    url,
    post(body, headers) {
      return new Promise((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString("utf8"), type: String(res.headers["content-type"] ?? "") }));
          res.on("error", (e) => reject(new FuzzFailure("crash", `response aborted: ${e.message}`)));
        });
        req.on("error", (e) => reject(new FuzzFailure(proc.exitCode === null ? "malformed" : "crash", `request failed: ${e.message}`)));
        req.end(body);
      });
    },
    async stop() {
      agent.destroy();
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const done = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await done;
    },
  };
}
