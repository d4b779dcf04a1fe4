// 2025-11-25 cancellation over HTTP: a notifications/cancelled POST stops the named request only when it
// comes from the same principal (the token's subject; without auth, the same client address).
import { isObject } from "./jsonrpc.js";

export interface Cancellable {
  cancelled: boolean;
  controller: AbortController;
}

const running = new Map<string, Set<Cancellable>>();

const keyOf = (principal: string, id: unknown) => `${principal}\u0000${typeof id}:${String(id)}`;

/** Registers a request under its principal and id; returns the unregister function. */
export function registerCall(principal: string, id: unknown, entry: Cancellable): () => void {
  const key = keyOf(principal, id);
  let set = running.get(key);
  if (!set) running.set(key, (set = new Set()));
  set.add(entry);
  return () => {
    set!.delete(entry);
    if (set!.size === 0 && running.get(key) === set) running.delete(key);
  };
}

/** Handles a notifications/cancelled from this principal; returns how many requests it stopped. */
export function cancelFrom(principal: string, params: unknown): number {
  if (!isObject(params)) return 0;
  const id = params.requestId;
  if (typeof id !== "string" && typeof id !== "number") return 0;
  const set = running.get(keyOf(principal, id));
  if (!set) return 0;
  for (const entry of set) {
    entry.cancelled = true;
    entry.controller.abort();
  }
  return set.size;
}
