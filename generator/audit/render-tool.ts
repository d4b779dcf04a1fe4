// One tool's section of AUDIT.md, from its manifest entry: the common definition, its kind's facts
// (labelled and rendered by the kind's definition; a key no kind labels is listed by name), and its
// effects in the same lines for every kind. A new kind shows up here without a change to this file.
import type { Json } from "../../templates/runtime/types.js";
import type { Effects, ManifestTool } from "./types.js";
import { findKind } from "../kinds/index.js";
import { code, plain } from "../shared/markdown.js";
import { isObject, stringsOf } from "../shared/object.js";

/** A fact in readable form: the kind's own rendering first, else a generic one. */
function fact(render: ((key: string, v: Json) => string | undefined) | undefined, key: string, v: Json): string {
  const own = render?.(key, v);
  if (own !== undefined) return own;
  if (typeof v === "boolean") return v ? "**yes**" : "no";
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.map(([k, x]) => `${k} ${x === null ? "none" : typeof x === "object" ? code(JSON.stringify(x)) : typeof x === "string" ? code(x) : String(x)}`).join(", ");
  }
  return plain(v);
}

/** What the tool reaches, the same lines for every kind. */
function effectLines(e: Effects): string[] {
  const yes = (b: boolean) => (b ? "**yes**" : "no");
  const lines = [`- Runs a shell: ${yes(e.shell)}`, `- Network access: ${yes(e.network)}`, `- Filesystem access: ${yes(e.filesystem)}`];
  if (e.confined) lines.push(`- Confined by the operating system (${e.confined.by}): sees ${e.confined.visible.map(code).join(", ")} and the system directories; writes ${e.confined.writable.length ? e.confined.writable.map(code).join(", ") + " and" : "only"} a private /tmp`);
  return lines;
}

function fields(schema: Record<string, Json> | undefined): string {
  const props = isObject(schema?.properties) ? schema.properties : {};
  const required = new Set(stringsOf(schema?.required) ?? []);
  const keys = Object.keys(props).sort();
  if (!keys.length) return "none";
  return keys
    .map((k) => {
      const prop = props[k];
      const t = isObject(prop) ? prop.type : undefined;
      const type = Array.isArray(t) ? t.join(" | ") : typeof t === "string" ? t : "any";
      return `${code(k)} (${type}${required.has(k) ? ", required" : ""})`;
    })
    .join(", ");
}

export function renderTool(t: ManifestTool): string[] {
  const out = [`### ${t.name}${t.title ? ` — ${t.title}` : ""}`, ""];
  if (t.description) out.push(t.description.replace(/\s+/g, " ").trim(), "");
  const a = t.annotations;
  out.push(
    `- Kind: ${code(t.kind)}`,
    `- Annotations: ${["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"].map((k) => `${k} ${a[k]}`).join(", ")}`,
    `- Input fields: ${fields(t.inputSchema)}`,
    `- Input schema sha256: ${code(t.inputSchemaSha256)}`,
    `- Output schema sha256: ${t.outputSchemaSha256 ? code(t.outputSchemaSha256) : "none (text output)"}`,
    `- Output cap: ${t.maxOutputChars} characters of text`,
  );
  if (t.reachedThrough) out.push(`- Reached through: ${reachText(t.reachedThrough)}`);
  if (t.descriptorTokens !== undefined) out.push(`- Descriptor size: ${t.descriptorTokens} tokens`);
  if (t.task) out.push(`- Runs as a task: ${t.task === "required" ? "always (clients without the tasks extension are refused with -32021)" : "for clients that declare the tasks extension; plainly for others"}`);
  if (t.confirm) out.push(`- Asks the user to confirm before it runs: ${code(t.confirm.message)}${t.confirm.inputKey ? ` (input request ${code(t.confirm.inputKey)})` : ""}; a decline runs nothing${t.confirm.fields ? `; the form also shows ${t.confirm.fields.map((f) => code(f)).join(", ")}, which the user may change before it runs` : ""}`);
  for (const a of t.ask ?? []) {
    const key = a.inputKey ?? a.field;
    const others = (t.ask ?? []).filter((b) => b !== a && !b.from && !a.from && (b.inputKey ?? b.field) === key).map((b) => code(b.field));
    out.push(`- ${askLine(a)}${others.length ? `; asked in one form with ${others.join(", ")}` : ""}`);
  }
  if (t.questions === "before-task") out.push("- As a task, asks its questions before the task is created (a multi round-trip request)");
  if (t.questions === "one-at-a-time") out.push("- Asks for its inputs one at a time, each in its own round, in the order of `ask`");
  if (t.scopes) out.push(`- Scopes needed over authorized HTTP: ${t.scopes.map((s) => code(s)).join(", ")}`);
  const facts = t.facts ?? {};
  // The kind's labels, in its order; a key it does not label (an older manifest's) by name, sorted.
  const kind = findKind(t.kind);
  const labels: Record<string, string> = kind?.factLabels ?? {};
  const order = Object.keys(labels);
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  const keys = Object.keys(facts).sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0));
  for (const key of keys) out.push(`- ${labels[key] ?? key}: ${fact(kind?.renderFact?.bind(kind), key, facts[key])}`);
  if (t.effects) out.push(...effectLines(t.effects));
  out.push("");
  return out;
}

/** One asked input: what asks, through which client capability, and what happens without it. */
function askLine(a: NonNullable<ManifestTool["ask"]>[number]): string {
  const id = a.inputKey ? `, input request id ${code(a.inputKey)}` : "";
  const without = a.optional ? "a client that did not declare it is served without the input" : "a client that did not declare it is refused";
  if (a.from === "sampling") {
    const extra = `${a.maxTokens !== undefined ? `, at most ${a.maxTokens} tokens` : ""}${a.systemPrompt !== undefined ? `, system prompt ${code(a.systemPrompt)}` : ""}`;
    return `Asks the client's model for ${code(a.field)} (string${id}) when the caller leaves it out, through sampling/createMessage (capability \`sampling\`${extra}): ${code(a.message)}; ${without}`;
  }
  if (a.from === "roots") return `Asks the client for its roots for ${code(a.field)} (string${id}: the first root's ${a.schema.format === "uri" ? "file:// URI" : "path"}) when the caller leaves it out, through roots/list (capability \`roots\`); ${without}`;
  return `Asks the user for ${code(a.field)} (${String(a.schema.type)}${id}) when the caller leaves it out, through a form (capability \`elicitation\`): ${code(a.message)}; a decline runs nothing; ${without}`;
}

function reachText(via: NonNullable<ManifestTool["reachedThrough"]>): string {
  if (via === "call_operation") return "`call_operation` (found with `search_operations`, not in tools/list)";
  if (via === "execute") return "a program's `api` in `execute` (found with `search_operations`, not in tools/list)";
  return via === "tools/list and execute" ? "tools/list and a program's `api` in `execute`" : "tools/list and `call_operation`";
}
