// Slow and greedy clients on the Streamable HTTP transport: header and whole-request timeouts, a cap on
// open connections, and a body reader that reports an aborted request instead of throwing.
// At the cap a new connection makes room by closing the oldest connection that is not being served
// (still sending its request, or idle between requests); when every connection is busy, the new one is
// refused. So sockets that trickle headers cannot keep new requests out, and the process never runs
// out of file descriptors.
import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";
import { log } from "./log.js";

export interface Limits {
  /** Time allowed from connection (or the previous request) until the request headers are complete. */
  headersTimeoutMs: number;
  /** Time allowed until the whole request, body included, has arrived. */
  requestTimeoutMs: number;
  maxConnections: number;
}

export const DEFAULT_LIMITS: Limits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 256 };

/** node:http options enforcing the timeouts; the check interval is short enough to honour small values. */
export function serverOptions(limits: Limits) {
  const requestTimeout = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs);
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** Sockets whose current request is past its body and being answered. */
const busy = new WeakSet<Socket>();

export function markBusy(socket: Socket, value: boolean): void {
  if (value) busy.add(socket);
  else busy.delete(socket);
}

export function capConnections(server: Server, maxConnections: number): void {
  const open = new Set<Socket>(); // insertion order: oldest first
  let lastNotice = 0;
  server.on("connection", (socket: Socket) => {
    if (open.size >= maxConnections) {
      let victim: Socket | undefined;
      for (const s of open) {
        if (!busy.has(s)) {
          victim = s;
          break;
        }
      }
      const now = Date.now();
      if (now - lastNotice > 60_000) {
        lastNotice = now;
        log(`connection cap (${maxConnections}) reached: ${victim ? "closing the oldest connection not being served" : "refusing new connections while all are busy"}`);
      }
      if (!victim) return void socket.destroy();
      open.delete(victim);
      victim.destroy();
    }
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
}

/** The body, null when over `max`, or "aborted" when the client went away or the request timed out. */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | null | "aborted"> {
  return new Promise((resolve) => {
    if (Number(req.headers["content-length"] ?? 0) > max) return resolve(null);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (value: Buffer | null | "aborted") => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > max) {
        req.pause();
        settle(null);
      } else chunks.push(chunk);
    });
    req.on("end", () => settle(Buffer.concat(chunks)));
    req.on("error", () => settle("aborted"));
    req.on("close", () => settle(req.complete ? Buffer.concat(chunks) : "aborted"));
  });
}
