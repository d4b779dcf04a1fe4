// What a call asks before it runs: a value for each asked input the caller left out (`ask:`, from the
// user, the client's model or its roots; see answers.ts) and the confirmation (`confirm:`). They go
// in rounds: first every missing value (one whose question or prompt shows another missing value
// waits for it), with the confirmation alongside unless its message shows one of them; then the
// confirmation, showing the values given. With `questions: one-at-a-time` each missing value has its
// own round, in the order of `ask`, and the confirmation comes last. Asked inputs sharing an inputKey
// are the fields of one form, asked together. An optional input the client
// cannot be asked (capability undeclared) is left out. The same rounds serve a multi round-trip
// request, a task's input_required and 2025-11-25 requests to the client. Only the asked field is
// taken from an answer; the merged arguments are then validated against the input schema like any
// others, so a bad value is a tool error and nothing runs.
import { isObject } from "../jsonrpc.js";
import type { AskDef, ToolDef } from "../types.js";
import { canElicit } from "../client-requests.js";
import { askedText, askKind, askRequest, canAnswer, capabilityOf, readAnswer } from "./answers.js";
import { confirmedValues, confirmRequest, inputKey, isConfirmed, notConfirmed, renderMessage } from "./confirm.js";

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

export function hasQuestions(tool: Asking): boolean {
  return tool.confirm !== undefined || (tool.ask?.length ?? 0) > 0;
}

const NONE: ReadonlySet<string> = new Set();

/** The optional asked inputs this client cannot be asked (it did not declare the capability): never asked, left out. */
export function unaskable(tool: Asking, capabilities: unknown): Set<string> {
  return new Set((tool.ask ?? []).filter((a) => a.optional && !canAnswer(askKind(a), capabilities)).map((a) => a.field));
}

/** What this call would ask that the client did not declare: the capabilities it needs, and what needs each. */
export function missingCapabilities(tool: Asking, args: Record<string, unknown>, capabilities: unknown): { required: Record<string, unknown>; what: string[] } | undefined {
  const required: Record<string, unknown> = {};
  const what: string[] = [];
  for (const a of tool.ask ?? []) {
    const kind = askKind(a);
    if (a.optional || Object.hasOwn(args, a.field) || canAnswer(kind, capabilities)) continue;
    Object.assign(required, capabilityOf(kind));
    what.push(`${a.field} from ${SOURCE[kind]} (${kind})`);
  }
  if (tool.confirm && !canElicit(capabilities)) {
    Object.assign(required, capabilityOf("elicitation"));
    what.push("a confirmation from the user (elicitation)");
  }
  return what.length ? { required, what } : undefined;
}

const SOURCE = { elicitation: "the user", sampling: "the client's model", roots: "the client's roots" } as const;

/** The next round's requests for these arguments; undefined when nothing is left to ask. `skip`: inputs never asked. */
export function nextRound(tool: Asking, args: Record<string, unknown>, confirmed: boolean, skip: ReadonlySet<string> = NONE): Requests | undefined {
  const left = (tool.ask ?? []).filter((a) => !Object.hasOwn(args, a.field) && !skip.has(a.field));
  // A question or prompt that shows another input still to be asked waits for a later round.
  const waiting = new Set(left.map((a) => a.field));
  const ready = left.filter((a) => ![...shown(a.message)].some((f) => f !== a.field && waiting.has(f)));
  const now = ready.length > 0 ? ready : left;
  // One form asks every missing field sharing an inputKey; one-at-a-time asks the first form.
  const missing = tool.questions === "one-at-a-time" ? now.filter((a) => askKey(a) === askKey(now[0] as AskDef)) : now; // declared order
  const out: Requests = {};
  for (const a of missing) {
    const key = askKey(a);
    if (!Object.hasOwn(out, key)) out[key] = askRequest(a, args, missing.filter((b) => askKey(b) === key));
  }
  if (tool.confirm && !confirmed) {
    const shows = shown(tool.confirm.message);
    if (!(tool.questions === "one-at-a-time" ? left.length > 0 : missing.some((a) => shows.has(a.field)))) out[inputKey(tool.confirm)] = confirmRequest(tool.confirm, renderMessage(tool.confirm.message, args), args);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** skipped: optional inputs the answer left out (an empty roots list), not to be asked again. */
export type Settled = { ok: true; values: Record<string, unknown>; confirmed: boolean; skipped: string[] } | { ok: false; result: Record<string, unknown> };

function notGiven(tool: string, ask: AskDef, why: string, asked: string): Record<string, unknown> {
  return { content: [{ type: "text", text: `${tool} did not run: it needs ${ask.field} from ${SOURCE[askKind(ask)]}, and ${why} (asked: ${asked}).` }], isError: true };
}

/** Reads the answers to one round: the values given and whether it confirmed, or the tool error that stops the call. */
export function settle(tool: Asking, args: Record<string, unknown>, asked: readonly string[], answers: Record<string, unknown>): Settled {
  const values: Record<string, unknown> = {};
  const skipped: string[] = [];
  let confirmed = false;
  for (const key of asked) {
    const answer = answers[key];
    // The fields of one form: those sharing the key and still missing when it was asked.
    const form = (tool.ask ?? []).filter((a) => askKey(a) === key && !Object.hasOwn(args, a.field));
    for (const ask of form) {
      const read = readAnswer(ask, answer);
      if (!read.ok) return { ok: false, result: notGiven(tool.name, ask, read.why, askedText(ask, args)) };
      if (read.value !== undefined) values[ask.field] = read.value;
      else if (ask.optional) skipped.push(ask.field);
      else return { ok: false, result: notGiven(tool.name, ask, "the client lists no roots", askedText(ask, args)) };
    }
    if (form.length === 0 && tool.confirm && key === inputKey(tool.confirm)) {
      if (!isConfirmed(answer)) return { ok: false, result: notConfirmed(tool.name, answer, renderMessage(tool.confirm.message, args)) };
      Object.assign(values, confirmedValues(tool.confirm, answer));
      confirmed = true;
    }
  }
  return { ok: true, values, confirmed, skipped };
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
    const read = readAnswer(ask, answers[askKey(ask)]);
    if (read.ok && read.value !== undefined) values[ask.field] = read.value;
  }
  return values;
}

export type Asked = { ok: true; args: Record<string, unknown> } | { ok: false; result: Record<string, unknown> };

/** Asks every round through `ask` (a task's input_required, or requests to a 2025 client one by one). */
export async function askAll(tool: Asking, args: Record<string, unknown>, ask: (requests: Requests) => Promise<Record<string, unknown>>, unasked: ReadonlySet<string> = NONE): Promise<Asked> {
  let merged = args;
  let confirmed = false;
  const skip = new Set(unasked);
  for (let round = nextRound(tool, merged, confirmed, skip); round; round = nextRound(tool, merged, confirmed, skip)) {
    const settled = settle(tool, merged, Object.keys(round), await ask(round));
    if (!settled.ok) return settled;
    merged = { ...merged, ...settled.values };
    confirmed ||= settled.confirmed;
    for (const field of settled.skipped) skip.add(field);
  }
  return { ok: true, args: merged };
}
