// GET /healthz (the process is alive and serving) and GET /readyz (ready for new work; 503 once draining,
// or while a check added here fails: the task store unreachable, say).
// Answered before the Host check: probes address a pod by IP, and these bodies say nothing sensitive.
import type { IncomingMessage, ServerResponse } from "node:http";
import { isDraining } from "./drain.js";

/** Each returns why the server is not ready, or undefined. */
const checks = new Set<() => string | undefined>();

/** Adds a readiness check; returns its removal. */
export function addReadinessCheck(check: () => string | undefined): () => void {
  checks.add(check);
  return () => void checks.delete(check);
}

function notReady(): string | undefined {
  if (isDraining()) return "draining";
  for (const check of checks) {
    const why = check();
    if (why !== undefined) return why;
  }
  return undefined;
}

/** Answers the probe paths; false for any other path (`path` is the request's, query removed). */
export function serveHealth(path: string, req: IncomingMessage, res: ServerResponse): boolean {
  if (path !== "/healthz" && path !== "/readyz") return false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD" });
    res.end();
    return true;
  }
  const why = path === "/readyz" ? notReady() : undefined;
  const down = why !== undefined;
  const body = down ? `${why}\n` : "ok\n";
  res.writeHead(down ? 503 : 200, { "content-type": "text/plain", "content-length": body.length, "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
