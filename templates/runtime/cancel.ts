// 2025-11-25 cancellation over HTTP: a notifications/cancelled POST stops the named request only when it
// comes from the same principal (the token's subject; without auth, the same client address).
// The calls in flight are searched when a cancellation arrives (rare, and at most one per connection in
// flight) rather than indexed on every request (common).
import { isObject } from "./jsonrpc.js";
import { callsInFlight } from "./shutdown.js";

/** Handles a notifications/cancelled from this principal; returns how many requests it stopped. */
export function cancelFrom(principal: string, params: unknown): number {
  if (!isObject(params)) return 0;
  const id = params.requestId;
  if (typeof id !== "string" && typeof id !== "number") return 0;
  let stopped = 0;
  for (const call of callsInFlight()) {
    if (call.principal === principal && call.requestId === id) {
      call.cancel();
      stopped++;
    }
  }
  return stopped;
}
