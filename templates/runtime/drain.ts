// Graceful drain of the HTTP transport on SIGTERM: /readyz turns 503 at once, the listener stays open for
// --drain-grace-ms (so load balancers see the readiness change first), then stops accepting; in-flight
// requests get until --drain-ms after the signal to finish, then the rest are cancelled (exec process
// groups killed by their shutdown hooks) and the process exits 0.
import type { Server, ServerResponse } from "node:http";
import { log } from "./log.js";
import { setDrainHandler, shutdown } from "./shutdown.js";

let draining = false;
let open = 0;
let onIdle: (() => void) | undefined;

export function isDraining(): boolean {
  return draining;
}

/**
 * Counts a request until its response is closed (the transport's one "close" listener calls
 * requestClosed); once draining, asks the client to close the connection after it.
 */
export function trackRequest(res: ServerResponse): void {
  open++;
  if (draining) res.setHeader("connection", "close");
}

export function requestClosed(): void {
  open--;
  if (open === 0) onIdle?.();
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function installDrain(server: Server, opts: { drainMs: number; drainGraceMs: number }): void {
  setDrainHandler(async () => {
    const start = Date.now();
    draining = true;
    log(`draining: /readyz is 503; ${open} request(s) in flight; accepting for ${opts.drainGraceMs} ms more, calls get ${opts.drainMs} ms`);
    if (opts.drainGraceMs > 0) await delay(Math.min(opts.drainGraceMs, opts.drainMs));
    server.close();
    server.closeIdleConnections();
    const idle = new Promise<void>((resolve) => {
      onIdle = resolve;
      if (open === 0) resolve();
    });
    const left = Math.max(0, opts.drainMs - (Date.now() - start));
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<"deadline">((resolve) => (timer = setTimeout(() => resolve("deadline"), left)));
    const outcome = await Promise.race([idle.then(() => "idle" as const), deadline]);
    clearTimeout(timer);
    if (outcome === "deadline") log(`drain deadline (${opts.drainMs} ms) reached: cancelling ${open} request(s) still in flight`);
    else log("drained: no request in flight");
    await shutdown(0);
  });
}
