// A real HTTP server on 127.0.0.1 for http-tool tests: records every request exactly as it
// arrived (raw target, raw header bytes, body bytes) and answers with a per-test route.
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallContext } from "../../../templates/runtime/types.js";
import type { HttpToolConfig } from "../../../templates/kinds/http/index.js";

export interface Seen {
  method: string;
  /** The request target as sent on the wire (path and query, undecoded). */
  target: string;
  /** Header values as bytes decoded as latin1 (what the wire carried). */
  headers: Record<string, string>;
  body: Buffer;
}

export type Route = (req: Seen, res: ServerResponse) => void;

export interface Upstream {
  origin: string;
  port: number;
  seen: Seen[];
  /** TCP connections accepted since the last reset (kept-alive sockets make this less than seen.length). */
  connections: number;
  route: Route;
  close(): Promise<void>;
}

/** Answers with a JSON description of the request it received. */
export const echo: Route = (req, res) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ method: req.method, target: req.target, headers: req.headers, body: req.body.toString("utf8") }));
};

export async function startUpstream(up: Upstream = { origin: "", port: 0, seen: [], connections: 0, route: echo, close: async () => {} }): Promise<Upstream> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers[req.rawHeaders[i]!.toLowerCase()] = req.rawHeaders[i + 1]!;
      const seen: Seen = { method: req.method!, target: req.url!, headers, body: Buffer.concat(chunks) };
      up.seen.push(seen);
      up.route(seen, res);
    });
  });
  server.on("connection", () => up.connections++);
  server.keepAliveTimeout = 5000; // announced as timeout=5: long enough for clients to reuse sockets
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  up.port = (server.address() as AddressInfo).port;
  up.origin = `http://127.0.0.1:${up.port}`;
  up.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return up;
}

/**
 * One upstream for a test file: started before its tests, closed after, and with an empty log and
 * the echo route before each test. The object is live from the start (fields filled on start).
 */
export function useUpstream(): Upstream {
  const up: Upstream = { origin: "", port: 0, seen: [], connections: 0, route: echo, close: async () => {} };
  beforeAll(() => startUpstream(up));
  afterAll(() => up.close());
  beforeEach(() => {
    up.seen.length = 0;
    up.connections = 0;
    up.route = echo;
  });
  return up;
}

/** A tool config with test defaults; the override env points it at the local upstream. */
export function toolConfig(over: Partial<HttpToolConfig> = {}): HttpToolConfig {
  return {
    tool: "t",
    method: "GET",
    origin: "https://api.example.com",
    originEnv: "T_BASE_URL",
    basePath: "",
    path: [],
    query: [],
    headers: [],
    secrets: [],
    timeoutMs: 2000,
    maxResponseBytes: 1 << 20,
    redirects: "none",
    output: { hasSchema: false },
    ...over,
  };
}

export function ctx(signal: AbortSignal = new AbortController().signal): CallContext {
  return { signal, era: "2026-07-28" };
}

export const lit = (s: string) => ({ lit: s });
export const input = (s: string) => ({ input: s });
export const secret = (s: string) => ({ secret: s });

/** A port nothing listens on: bound, then released (for connection-refused cases). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
