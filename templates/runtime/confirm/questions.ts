// What a call asks the human before it runs: a value for each asked input the caller left out
// (`ask:`) and the confirmation (`confirm:`). They go in rounds: first every missing value, with the
// confirmation alongside unless its message shows one of them; then the confirmation, showing the
// values given. With `questions: one-at-a-time` each missing value has its own round, in the order
// of `ask`, and the confirmation comes last. The same rounds serve a multi round-trip request, a task's input_required and a
// 2025-11-25 elicitation. Only the asked field is taken from an answer; the merged arguments are then
// validated against the input schema like any others, so a bad value is a tool error and nothing runs.
import { isObject } from "../jsonrpc.js";
import type { AskDef, ToolDef } from "../types.js";
import { confirmRequest, inputKey, isConfirmed, notConfirmed, renderMessage } from "./confirm.js";

export type Requests = Record<string, Record<string, unknown>>;

/** What asks: a tool, or a prompt (named "prompt <name>", so its sealed state never opens for a tool). */
export type Asking = Pick<ToolDef, "name" | "ask" | "confirm" | "questions">;

const FIELD = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

function shown(message: string): Set<string> {
  const out = new Set<string>();
  for (const m of message.matchAll(FIELD)) if (m[1] !== undefined) out.add(m[1]);
  return out;
}

/** The id of an asked value's input request: its inputKey, else the field's name. */
export function askKey(ask: AskDef): string {
  return ask.inputKey ?? ask.field;
}

/** The elicitation/create request (form mode) for one asked value. */
export function askRequest(ask: AskDef, args: Record<string, unknown>): Record<string, unknown> {
  return {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: renderMessage(ask.message, args),
      requestedSchema: { type: "object", properties: { [ask.field]: ask.schema }, required: [ask.field] },
    },
  };
}

export function hasQuestions(tool: Asking): boolean {
  return tool.confirm !== undefined || (tool.ask?.length ?? 0) > 0;
}

/** The next round's requests for these arguments; undefined when nothing is left to ask. */
export function nextRound(tool: Asking, args: Record<string, unknown>, confirmed: boolean): Requests | undefined {
  const left = (tool.ask ?? []).filter((a) => !Object.hasOwn(args, a.field));
  const missing = tool.questions === "one-at-a-time" ? left.slice(0, 1) : left; // declared order
  const out: Requests = {};
  for (const a of missing) out[askKey(a)] = askRequest(a, args);
  if (tool.confirm && !confirmed) {
    const shows = shown(tool.confirm.message);
    if (!(tool.questions === "one-at-a-time" ? left.length > 0 : missing.some((a) => shows.has(a.field)))) out[inputKey(tool.confirm)] = confirmRequest(renderMessage(tool.confirm.message, args));
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export type Settled = { ok: true; values: Record<string, unknown>; confirmed: boolean } | { ok: false; result: Record<string, unknown> };

function notGiven(tool: string, ask: AskDef, answer: unknown, message: string): Record<string, unknown> {
  const action = isObject(answer) ? answer.action : undefined;
  const why = action === "decline" ? "the user declined to give it" : action === "cancel" ? "the user dismissed the question" : "the answer did not carry it";
  return { content: [{ type: "text", text: `${tool} did not run: it needs ${ask.field} from the user, and ${why} (asked: ${message}).` }], isError: true };
}

/** Reads the answers to one round: the values given and whether it confirmed, or the tool error that stops the call. */
export function settle(tool: Asking, args: Record<string, unknown>, asked: readonly string[], answers: Record<string, unknown>): Settled {
  const values: Record<string, unknown> = {};
  let confirmed = false;
  for (const key of asked) {
    const answer = answers[key];
    const ask = tool.ask?.find((a) => askKey(a) === key);
    if (ask) {
      const content = isObject(answer) && answer.action === "accept" && isObject(answer.content) ? answer.content : undefined;
      if (!content || !Object.hasOwn(content, ask.field) || content[ask.field] === null) return { ok: false, result: notGiven(tool.name, ask, answer, renderMessage(ask.message, args)) };
      values[ask.field] = content[ask.field];
    } else if (tool.confirm && key === inputKey(tool.confirm)) {
      if (!isConfirmed(answer)) return { ok: false, result: notConfirmed(tool.name, answer, renderMessage(tool.confirm.message, args)) };
      confirmed = true;
    }
  }
  return { ok: true, values, confirmed };
}

/**
 * The asked values an answer given without a sealed state carries: an asked value is plain user data
 * the caller could equally have put in the arguments, so a well-formed accepted answer for a field
 * still missing is taken (the merged arguments are validated as usual). Anything else is ignored:
 * unknown keys, malformed answers, and above all a confirmation, which counts only with the sealed
 * state it was asked under.
 */
export function unsealedValues(tool: Asking, args: Record<string, unknown>, answers: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const ask of tool.ask ?? []) {
    if (Object.hasOwn(args, ask.field)) continue;
    const answer = answers[askKey(ask)];
    if (!isObject(answer) || answer.action !== "accept" || !isObject(answer.content)) continue;
    const value = answer.content[ask.field];
    if (value !== undefined && value !== null) values[ask.field] = value;
  }
  return values;
}

export type Asked = { ok: true; args: Record<string, unknown> } | { ok: false; result: Record<string, unknown> };

/** Asks every round through `ask` (a task's input_required, or elicitation requests one by one). */
export async function askAll(tool: Asking, args: Record<string, unknown>, ask: (requests: Requests) => Promise<Record<string, unknown>>): Promise<Asked> {
  let merged = args;
  let confirmed = false;
  for (let round = nextRound(tool, merged, confirmed); round; round = nextRound(tool, merged, confirmed)) {
    const settled = settle(tool, merged, Object.keys(round), await ask(round));
    if (!settled.ok) return settled;
    merged = { ...merged, ...settled.values };
    confirmed ||= settled.confirmed;
  }
  return { ok: true, args: merged };
}
