// Starts a bundled server as a child process (stdio or --http 0) and connects the official MCP client
// (@modelcontextprotocol/client) in a chosen version mode. Shared by every test that drives a real server.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/** Pinned 2026-07-28, the plain 2025-11-25 initialize client, or auto (probe, then fall back). */
export type VersionMode = "2026-07-28" | "2025-11-25" | "auto";
export const VERSION_MODES: VersionMode[] = ["2026-07-28", "2025-11-25", "auto"];

export interface Connected {
  client: Client;
  /** stderr of the server process captured so far (stdio only; HTTP servers expose it on HttpServer). */
  stderr(): string;
  close(): Promise<void>;
}

export interface HttpServer {
  url: string;
  proc: ChildProcess;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

function newClient(mode: VersionMode): Client {
  const negotiation = mode === "2026-07-28" ? { mode: { pin: "2026-07-28" } } : mode === "auto" ? { mode: "auto" as const } : { mode: "legacy" as const };
  return new Client({ name: "kervan-test", version: "0.0.0" }, { versionNegotiation: negotiation });
}

export async function connectStdio(bundle: string, mode: VersionMode, args: string[] = [], env?: Record<string, string>): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bundle, ...args], stderr: "pipe", env: env ? { ...process.env, ...env } as Record<string, string> : undefined });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const client = newClient(mode);
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

/** Spawns `node bundle --http 0 ...` and resolves once it prints its listening URL on stderr. */
export async function startHttpServer(bundle: string, args: string[] = [], env?: Record<string, string>): Promise<HttpServer> {
  const proc = spawn(process.execPath, [bundle, "--http", "0", ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start; stderr:\n${err}`)), 10_000);
    proc.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}; stderr:\n${err}`));
    });
  });
  return {
    url,
    proc,
    stderr: () => err,
    async stop(signal = "SIGTERM") {
      if (proc.exitCode !== null) return proc.exitCode;
      const exited = once(proc, "exit");
      proc.kill(signal);
      const [code] = await exited;
      return code as number | null;
    },
  };
}

export async function connectHttp(url: string, mode: VersionMode): Promise<Connected> {
  const client = newClient(mode);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, stderr: () => "", close: () => client.close() };
}
