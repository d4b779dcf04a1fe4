// GET /healthz (the process is alive and serving) and GET /readyz (ready for new work; 503 once draining).
// Answered before the Host check: probes address a pod by IP, and these bodies say nothing sensitive.
import type { IncomingMessage, ServerResponse } from "node:http";
import { isDraining } from "./drain.js";

/** Answers the probe paths; false for any other path (`path` is the request's, query removed). */
export function serveHealth(path: string, req: IncomingMessage, res: ServerResponse): boolean {
  if (path !== "/healthz" && path !== "/readyz") return false;
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD" });
    res.end();
    return true;
  }
  const down = path === "/readyz" && isDraining();
  const body = down ? "draining\n" : "ok\n";
  res.writeHead(down ? 503 : 200, { "content-type": "text/plain", "content-length": body.length, "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
