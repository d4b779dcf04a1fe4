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

/** Set on a socket while its current request is past its body and being answered (a plain property: cheaper than a WeakSet entry per request). */
const BUSY = Symbol("kervan.busy");
type Marked = Socket & { [BUSY]?: boolean };

export function markBusy(socket: Socket, value: boolean): void {
  (socket as Marked)[BUSY] = value;
}

export function capConnections(server: Server, maxConnections: number): void {
  const open = new Set<Socket>(); // insertion order: oldest first
  let lastNotice = 0;
  server.on("connection", (socket: Socket) => {
    if (open.size >= maxConnections) {
      let victim: Socket | undefined;
      for (const s of open) {
        if ((s as Marked)[BUSY] !== true) {
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

/**
 * Calls `done` once with the body, null when over `max`, or "aborted" when the client went away or the
 * request timed out. A callback, not a promise: the request goes on in the same turn its body ends.
 * Three listeners: an aborted request always ends in "close", and node:http emits a request's "error"
 * only to listeners, so none is needed for it.
 */
export function readBody(req: IncomingMessage, max: number, done: (body: Buffer | null | "aborted") => void): void {
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > max) return done(null);
  let first: Buffer | undefined;
  let rest: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  const body = () => (rest ? Buffer.concat(rest) : (first ?? Buffer.alloc(0)));
  req.on("data", (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > max) {
      settled = true;
      req.pause();
      done(null);
    } else if (first === undefined) first = chunk;
    else (rest ??= [first]).push(chunk);
  });
  req.on("end", () => {
    if (settled) return;
    settled = true;
    done(body());
  });
  req.on("close", () => {
    if (settled) return;
    settled = true;
    done(req.complete ? body() : "aborted");
  });
}
