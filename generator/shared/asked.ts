// The asked inputs (`ask:`) a tool always has by the time it runs: every entry but those marked
// `optional: true`, which a client without the capability leaves out like any optional input.
// Kinds read it to know which optional properties their command may rely on.

export function alwaysAsked(ask: unknown): string[] {
  if (ask === null || typeof ask !== "object" || Array.isArray(ask)) return [];
  const entries = ask as Record<string, unknown>;
  return Object.keys(entries).filter((f) => {
    const e = entries[f];
    return !(e !== null && typeof e === "object" && (e as Record<string, unknown>).optional === true);
  });
}
