// A raw line-level stdio driver for the cases the official client cannot produce (bad JSON, huge lines, EOF).
import { spawn, type ChildProcess } from "node:child_process";

export interface RawServer {
  proc: ChildProcess;
  send(line: string): void;
  next(): Promise<Record<string, unknown>>;
  stderr(): string;
  exited: Promise<number | null>;
}

export function spawnRaw(bundle: string, env: Record<string, string> = {}, args: string[] = []): RawServer {
  const proc = spawn(process.execPath, [bundle, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
  let out = "";
  let err = "";
  const queue: Record<string, unknown>[] = [];
  const waiters: ((msg: Record<string, unknown>) => void)[] = [];
  proc.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    let nl: number;
    while ((nl = out.indexOf("\n")) !== -1) {
      const msg = JSON.parse(out.slice(0, nl)); // every stdout line must be JSON: nothing else may go there
      out = out.slice(nl + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(msg);
      else queue.push(msg);
    }
  });
  proc.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  return {
    proc,
    send: (line) => proc.stdin!.write(line + "\n"),
    next: () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiters.push(resolve))),
    stderr: () => err,
    exited,
  };
}

export const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

export function call(id: number | string, name: string, args: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: META } });
}
