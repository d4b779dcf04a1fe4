// Replicas of a generated server as real processes on fixed loopback ports, restartable on the same port.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";

export interface Replica {
  port: number;
  proc: ChildProcess;
  /** Every stderr line this replica's processes wrote, across restarts. */
  lines: string[];
  generation: number;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export async function launch(bundle: string, port: number, args: string[], replica?: Replica): Promise<Replica> {
  const proc = spawn(process.execPath, [bundle, "--http", String(port), "--log-format", "json", ...args], { stdio: ["ignore", "ignore", "pipe"] });
  const r: Replica = replica ?? { port, proc, lines: [], generation: 0 };
  r.proc = proc;
  r.generation++;
  let partial = "";
  let listening = false;
  await new Promise<void>((resolve, reject) => {
    proc.stderr!.on("data", (chunk: Buffer) => {
      partial += chunk.toString();
      let nl: number;
      while ((nl = partial.indexOf("\n")) !== -1) {
        const line = partial.slice(0, nl);
        partial = partial.slice(nl + 1);
        r.lines.push(line);
        if (!listening && line.includes("listening on")) {
          listening = true;
          resolve();
        }
      }
    });
    proc.once("exit", (code) => {
      if (!listening) reject(new Error(`replica on ${port} exited with ${code} before listening:\n${r.lines.join("\n")}`));
    });
  });
  return r;
}

/** Sends the signal and resolves with the exit code (null when killed by a signal). */
export async function stop(r: Replica, signal: NodeJS.Signals): Promise<number | null> {
  // Already gone (a SIGKILLed process has a signalCode and no exitCode): "exit" will not come again.
  if (r.proc.exitCode !== null || r.proc.signalCode !== null) return r.proc.exitCode;
  const exited = once(r.proc, "exit");
  r.proc.kill(signal);
  const [code] = await exited;
  return code as number | null;
}

/** JSON request-log entries of tools/call requests across every replica. */
export function callEntries(replicas: Replica[]): { port: number; id: unknown; outcome: string }[] {
  const out: { port: number; id: unknown; outcome: string }[] = [];
  for (const r of replicas) {
    for (const line of r.lines) {
      if (!line.startsWith("{")) continue;
      const e = JSON.parse(line);
      if (e.method === "tools/call") out.push({ port: r.port, id: e.id, outcome: e.outcome });
    }
  }
  return out;
}
