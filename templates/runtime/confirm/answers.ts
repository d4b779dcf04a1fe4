// The three kinds of asked input (`ask:`): who answers, the input request that asks, which client
// capability it needs, and how an answer reads. Shapes follow the MCP schema (2026-07-28, the same in
// 2025-11-25): an elicitation/create form request answered by an ElicitResult; a sampling/createMessage
// request answered by a CreateMessageResult (role, content, model); a roots/list request answered by a
// ListRootsResult (roots, each with a file:// uri). An answer of the wrong shape is refused with the
// reason (the call then runs nothing); only the asked field is ever taken from it.
import { fileURLToPath } from "node:url";
import { canElicit } from "../client-requests.js";
import { isObject } from "../jsonrpc.js";
import type { AskDef } from "../types.js";
import { renderMessage } from "./confirm.js";

export type AskKind = "elicitation" | "sampling" | "roots";

/** The default maxTokens of a sampled input. */
export const DEFAULT_MAX_TOKENS = 1000;

export function askKind(ask: AskDef): AskKind {
  return ask.from ?? "elicitation";
}

/** The client capability each kind needs, as a ClientCapabilities object (-32021's requiredCapabilities). */
export function capabilityOf(kind: AskKind): Record<string, unknown> {
  return { [kind]: {} };
}

/** Whether a client that declared these capabilities can answer this kind of request. */
export function canAnswer(kind: AskKind, capabilities: unknown): boolean {
  if (kind === "elicitation") return canElicit(capabilities);
  return isObject(capabilities) && isObject(capabilities[kind]);
}

/** The input request that asks for one value, or (a form) for every field of `form`, the asks sharing its inputKey. */
export function askRequest(ask: AskDef, args: Record<string, unknown>, form: readonly AskDef[] = [ask]): Record<string, unknown> {
  switch (askKind(ask)) {
    case "sampling":
      return {
        method: "sampling/createMessage",
        params: {
          messages: [{ role: "user", content: { type: "text", text: renderMessage(ask.message, args) } }],
          maxTokens: ask.maxTokens ?? DEFAULT_MAX_TOKENS,
          ...(ask.systemPrompt !== undefined ? { systemPrompt: ask.systemPrompt } : {}),
        },
      };
    case "roots":
      return { method: "roots/list", params: {} };
    default:
      return {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: renderMessage(ask.message, args),
          requestedSchema: { type: "object", properties: Object.fromEntries(form.map((a) => [a.field, a.schema])), required: form.map((a) => a.field) },
        },
      };
  }
}

/** What an asked input is, for a message: the question, the prompt, or "the client's roots". */
export function askedText(ask: AskDef, args: Record<string, unknown>): string {
  const kind = askKind(ask);
  if (kind === "roots") return "the client's roots (roots/list)";
  return kind === "sampling" ? `the client's model (sampling): ${renderMessage(ask.message, args)}` : renderMessage(ask.message, args);
}

/** ok with value: the input's value; ok without: nothing to take (an empty roots list); else why not. */
export type Read = { ok: true; value?: unknown } | { ok: false; why: string };

const ROLES = new Set(["user", "assistant"]);

function readElicitation(ask: AskDef, answer: unknown): Read {
  const action = isObject(answer) ? answer.action : undefined;
  const content = action === "accept" && isObject(answer) && isObject(answer.content) ? answer.content : undefined;
  if (content && Object.hasOwn(content, ask.field) && content[ask.field] !== null && content[ask.field] !== undefined) return { ok: true, value: content[ask.field] };
  return { ok: false, why: action === "decline" ? "the user declined to give it" : action === "cancel" ? "the user dismissed the question" : "the answer did not carry it" };
}

function readSampling(answer: unknown): Read {
  if (!isObject(answer) || typeof answer.model !== "string" || !ROLES.has(answer.role as string) || !isObject(answer.content) || typeof answer.content.type !== "string") {
    return { ok: false, why: "the client's answer is not a sampling result (CreateMessageResult: role, content, model)" };
  }
  const content = answer.content;
  const type = String(content.type);
  if (type !== "text") return { ok: false, why: `the model answered with ${/^[a-z_]{1,20}$/.test(type) ? type : "other"} content, not text` };
  if (typeof content.text !== "string") return { ok: false, why: "the client's answer is not a sampling result (its text content has no text)" };
  return { ok: true, value: content.text };
}

function readRoots(ask: AskDef, answer: unknown): Read {
  const roots = isObject(answer) && Array.isArray(answer.roots) ? answer.roots : undefined;
  const valid = roots?.every((r) => isObject(r) && typeof r.uri === "string" && r.uri.startsWith("file://") && (r.name === undefined || typeof r.name === "string"));
  if (!roots || !valid) return { ok: false, why: "the client's answer is not a roots list (ListRootsResult: roots, each with a file:// uri)" };
  if (roots.length === 0) return { ok: true };
  const uri = (roots[0] as { uri: string }).uri;
  if (ask.schema.format === "uri") return { ok: true, value: uri };
  try {
    return { ok: true, value: fileURLToPath(uri) };
  } catch {
    return { ok: false, why: "the client's first root is not a local file URI" };
  }
}

/** Reads one answer to an asked input's request. */
export function readAnswer(ask: AskDef, answer: unknown): Read {
  switch (askKind(ask)) {
    case "sampling":
      return readSampling(answer);
    case "roots":
      return readRoots(ask, answer);
    default:
      return readElicitation(ask, answer);
  }
}
