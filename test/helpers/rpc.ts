// Raw 2026-07-28 JSON-RPC over Streamable HTTP, with the routing headers set and an optional source
// address (any 127.x address reaches a loopback server, so tests can act as different callers).
import { request } from "node:http";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const TASKS = "io.modelcontextprotocol/tasks";
export const FULL_CAPS = { elicitation: {}, extensions: { [TASKS]: {} } };

export interface RpcOptions {
  caps?: Record<string, unknown>;
  from?: string;
  /** Extra request headers (an Authorization header, say). */
  headers?: Record<string, string>;
}

export interface RpcAnswer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;

export function rpc(url: string, method: string, params: Record<string, unknown> = {}, opts: RpcOptions = {}): Promise<RpcAnswer> {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": opts.caps ?? FULL_CAPS };
  const body = JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta } });
  const name = method === "tools/call" || method === "prompts/get" ? params.name : typeof params.taskId === "string" ? params.taskId : undefined;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(typeof name === "string" ? { "mcp-name": name } : {}),
    ...opts.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers, ...(opts.from ? { localAddress: opts.from } : {}) }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => {
        const data = text.startsWith("event:") ? text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).at(-1)! : text;
        const msg = data ? JSON.parse(data) : {};
        resolve({ status: res.statusCode ?? 0, result: msg.result, error: msg.error });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Polls tasks/get until the status is one of `until` (answers, not time, end the wait). */
export async function waitStatus(url: string, taskId: string, until: string[], opts: RpcOptions = {}, tries = 400): Promise<Record<string, unknown>> {
  let last: RpcAnswer | undefined;
  for (let i = 0; i < tries; i++) {
    last = await rpc(url, "tasks/get", { taskId }, opts);
    if (last.result && until.includes(String(last.result.status))) return last.result;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${taskId} never reached ${until.join("/")}: ${JSON.stringify(last)}`);
}

/** Generates test/fixtures/tasks/jobs.yaml with the given store into a temporary folder; returns the bundle. */
export function generateJobs(store: "memory" | "file" | "redis"): string {
  const dir = mkdtempSync(join(tmpdir(), `kervan-jobs-${store}-`));
  const spec = readFileSync("test/fixtures/tasks/jobs.yaml", "utf8").replace("store: memory", `store: ${store}`);
  writeFileSync(join(dir, "jobs.yaml"), spec);
  const gen = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", join(dir, "jobs.yaml"), "--out", join(dir, "out")], { encoding: "utf8" });
  if (gen.status !== 0) throw new Error(`kervan gen failed:\n${gen.stdout}${gen.stderr}`);
  return join(dir, "out/jobs/server.mjs");
}
