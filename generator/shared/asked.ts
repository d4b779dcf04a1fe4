// The asked inputs (`ask:`) a tool always has by the time it runs: every entry but those marked
// `optional: true`, which a client without the capability leaves out like any optional input.
// Kinds read it to know which optional properties their command may rely on.

import { isObject } from "./object.js";

export function alwaysAsked(ask: unknown): string[] {
  if (!isObject<unknown>(ask)) return [];
  return Object.keys(ask).filter((f) => {
    const e = ask[f];
    return !(isObject<unknown>(e) && e.optional === true);
  });
}
