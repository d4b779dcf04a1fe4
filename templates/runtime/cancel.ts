// 2025-11-25 cancellation over HTTP: a notifications/cancelled POST stops the named request only when it
// comes from the same principal (the token's subject; without auth, the same client address).
import { isObject } from "./jsonrpc.js";
import type { CallHandle } from "./shutdown.js";

// One entry per running request; a list only while one principal has several running under the same id.
const running = new Map<string, CallHandle | CallHandle[]>();

export const callKey = (principal: string, id: unknown): string => `${principal}\u0000${typeof id}:${String(id)}`;

/** Registers a request under its key (callKey); unregister it with the same key when it is done. */
export function registerCall(key: string, call: CallHandle): void {
  const present = running.get(key);
  if (present === undefined) running.set(key, call);
  else if (Array.isArray(present)) present.push(call);
  else running.set(key, [present, call]);
}

export function unregisterCall(key: string, call: CallHandle): void {
  const present = running.get(key);
  if (present === call) running.delete(key);
  else if (Array.isArray(present)) {
    const left = present.filter((c) => c !== call);
    if (left.length === 0) running.delete(key);
    else running.set(key, left.length === 1 ? left[0] : left);
  }
}

/** Handles a notifications/cancelled from this principal; returns how many requests it stopped. */
export function cancelFrom(principal: string, params: unknown): number {
  if (!isObject(params)) return 0;
  const id = params.requestId;
  if (typeof id !== "string" && typeof id !== "number") return 0;
  const present = running.get(callKey(principal, id));
  if (present === undefined) return 0;
  const calls = Array.isArray(present) ? [...present] : [present];
  for (const call of calls) call.cancel();
  return calls.length;
}
