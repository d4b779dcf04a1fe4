// Rules for `task:`, `confirm:`, `ask:` and `questions:` on a tool: each needs a kind whose tools do
// work (its definition says `tasks: true`); a confirmation message or question may only name the
// tool's own input properties; no question shares another's input request id; `questions:` needs a
// task tool that asks something. Asked fields are checked against the input schema (ask.ts).
import type { Json } from "../../templates/runtime/types.js";
import { allKinds } from "../kinds/index.js";
import { askText, resolveAsk } from "./ask.js";
import { resolveConfirmFields } from "./confirm-fields.js";
import type { AnyKind, RawTool, RuleContext } from "../kinds/types.js";

const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

/** The `{field}` names a message uses. */
export function placeholders(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (m[1] !== undefined) out.push(m[1]);
  return out;
}

/** The tool's argument names: its input schema's properties, or (without one) what its kind implies. */
function argumentNames(tool: RawTool, kind: AnyKind): Set<string> | undefined {
  const input = tool.input as Json | undefined;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const props = input.properties;
    return new Set(props && typeof props === "object" && !Array.isArray(props) ? Object.keys(props) : []);
  }
  const implied = input === undefined ? kind.impliedInputs?.(tool) : undefined;
  return implied ? new Set(implied) : undefined; // an @file input: its properties are checked where the file is read
}

/** An input schema of the implied inputs (strings): enough to check a confirmation's fields by name. */
function impliedSchema(names: Set<string>): Record<string, Json> {
  return { type: "object", properties: Object.fromEntries([...names].map((n) => [n, { type: "string" }])) };
}

function messageOf(entry: Json | undefined): string | undefined {
  if (typeof entry === "string") return entry;
  return entry && typeof entry === "object" && !Array.isArray(entry) && typeof entry.message === "string" ? entry.message : undefined;
}

function checkPlaceholders(message: string, names: Set<string>, what: string, where: string, ctx: RuleContext): void {
  for (const field of new Set(placeholders(message))) {
    if (!names.has(field)) {
      const known = [...names].sort();
      ctx.report("KV434", `${what} uses {${field}}, which is not an input property of this tool${known.length ? ` (properties: ${known.join(", ")})` : ""}`, where);
    }
  }
}

/** Why two ask entries with one inputKey cannot share a form: both must ask the user, with one message. */
function sharedFormProblem(a: Json | undefined, b: Json | undefined): string | undefined {
  const form = (e: Json | undefined): string | undefined => (typeof e === "string" ? e : e && typeof e === "object" && !Array.isArray(e) && typeof e.message === "string" ? e.message : undefined);
  const [ma, mb] = [form(a), form(b)];
  if (ma === undefined || mb === undefined) return "both ask the user (not sample: or roots:)";
  return ma === mb ? undefined : "both carry the same message (the form's)";
}

export function checkTaskAndConfirm(tool: RawTool, kind: AnyKind, ctx: RuleContext): void {
  const wantsTask = tool.task !== undefined && tool.task !== "forbidden";
  const able = allKinds().filter((k) => k.tasks).map((k) => k.key);
  const ask = tool.ask && typeof tool.ask === "object" && !Array.isArray(tool.ask) ? (tool.ask as Record<string, Json>) : undefined;
  for (const [key, used] of [["task", wantsTask], ["confirm", tool.confirm !== undefined], ["ask", ask !== undefined], ["questions", tool.questions !== undefined]] as const) {
    if (used && !kind.tasks) {
      ctx.report("KV433", `'${key}' applies to ${able.join(" and ")} tools; a ${kind.key} tool answers at once and changes nothing`, `${ctx.pointer}/${key}`);
    }
  }
  if (!kind.tasks) return;
  const confirm = tool.confirm as Json | undefined;
  if (tool.questions === "one-at-a-time") {
    if (ask === undefined) ctx.report("KV439", `'questions: one-at-a-time' asks each asked input in its own round; this tool asks for no inputs (no ask)`, `${ctx.pointer}/questions`);
  } else if (tool.questions !== undefined && (!wantsTask || (confirm === undefined && ask === undefined))) {
    ctx.report("KV439", `'questions' says where a task asks its questions; this tool ${wantsTask ? "asks nothing (no confirm or ask)" : "does not run as a task (task: optional or required)"}`, `${ctx.pointer}/questions`);
  }
  const confirmKey = confirm && typeof confirm === "object" && !Array.isArray(confirm) && typeof confirm.inputKey === "string" ? confirm.inputKey : "confirm";
  const ids = new Map<string, string>(); // input request id -> the asked field it belongs to
  for (const [field, entry] of Object.entries(ask ?? {})) {
    const id = entry && typeof entry === "object" && !Array.isArray(entry) && typeof entry.inputKey === "string" ? entry.inputKey : field;
    const where = id === field ? `${ctx.pointer}/ask/${field}` : `${ctx.pointer}/ask/${field}/inputKey`;
    if (confirm !== undefined && id === confirmKey) {
      ctx.report("KV438", `'${confirmKey}' is both an asked input and the confirmation's input request id; give the confirmation another inputKey`, where);
    } else if (ids.get(id) !== undefined) {
      const first = ids.get(id)!;
      const why = sharedFormProblem(ask?.[first], entry);
      if (why) ctx.report("KV438", `'${id}' is the input request id of both '${first}' and '${field}', which ask in one form only when ${why}; give one of them another inputKey`, where);
      continue;
    }
    ids.set(id, field);
  }
  const input = tool.input as Json | undefined;
  const inline = input && typeof input === "object" && !Array.isArray(input) ? input : undefined;
  if (ask && inline) resolveAsk(tool, inline, ctx);
  const names = argumentNames(tool, kind);
  if (confirm !== undefined && (inline || names)) resolveConfirmFields(tool, inline ?? impliedSchema(names!), ctx);
  if (!names) return;
  const message = messageOf(confirm);
  if (message !== undefined) checkPlaceholders(message, names, "the confirmation message", typeof confirm === "string" ? `${ctx.pointer}/confirm` : `${ctx.pointer}/confirm/message`, ctx);
  for (const [field, entry] of Object.entries(ask ?? {})) {
    const text = askText(entry);
    const slot = typeof entry === "string" ? "" : entry && typeof entry === "object" && !Array.isArray(entry) && typeof entry.sample === "string" ? "/sample" : "/message";
    if (text !== undefined) checkPlaceholders(text, names, slot === "/sample" ? `the sampling prompt for '${field}'` : `the question for '${field}'`, `${ctx.pointer}/ask/${field}${slot}`, ctx);
  }
}
