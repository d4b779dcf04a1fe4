// The changelog as text, in the manner of a registry's schema changelog: one entry per change,
// "<change> <Area / path>", the old and new values as -/+ JSON lines, BREAKING entries marked.
import type { Json } from "../../templates/runtime/types.js";
import type { Change, Changelog } from "./change.js";

function lines(sign: string, v: Json): string[] {
  return JSON.stringify(v, null, 2).split("\n").map((l) => `  ${sign}${l}`);
}

function entry(c: Change): string[] {
  const out = [`${c.breaking ? "BREAKING " : ""}${c.change} ${c.path.join(" / ")}`];
  if (c.breaking) out.push(`  ${c.breaking}`);
  if (c.old !== undefined) out.push(...lines("-", c.old));
  if (c.new !== undefined) out.push(...lines("+", c.new));
  return out;
}

export function renderChangelog(log: Changelog): string {
  const breaking = log.changes.filter((c) => c.breaking).length;
  const out = [`# ${log.server} ${log.from} -> ${log.to}`, ""];
  if (!log.changes.length) return [...out, "No changes.", ""].join("\n");
  out.push(`${log.changes.length} change${log.changes.length === 1 ? "" : "s"}, ${breaking} breaking.`);
  const groups = new Map<string, Change[]>();
  for (const c of log.changes) {
    const key = c.tool === undefined ? "" : c.tool;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  // Server-wide first, then tools by name.
  for (const key of [...groups.keys()].sort()) {
    out.push("", key === "" ? "## Server" : `## Tool ${key}`);
    for (const c of groups.get(key)!) out.push("", ...entry(c));
  }
  return out.join("\n") + "\n";
}
