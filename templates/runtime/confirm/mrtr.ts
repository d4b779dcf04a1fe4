// The questions of a plain (non-task) tools/call under 2026-07-28, as a multi round-trip request: each
// round answers input_required with its elicitations and a sealed requestState; the retry carries the
// answers and that state. The state must open under our key and match this tool, these arguments and
// this principal, and not be expired; otherwise the retry is refused and nothing runs. It carries what
// earlier rounds collected (values given, confirmation) sealed, so a client cannot forge them.
// Each state is single-use: its nonce is consumed in the task store (shared by replicas with Redis, kept
// across restarts with the file store), so a state replayed, even for the same call, is refused. Where
// the record lives in this process only, the state is bound to this process too. A retry whose answers are missing is asked again.
// Answers without a state: asked values are taken (plain user data), a confirmation never is.
import { randomBytes } from "node:crypto";
import { INVALID_PARAMS, isObject, RpcError } from "../jsonrpc.js";
import { nextRound, settle, unaskable, unsealedValues, type Asking } from "./questions.js";
import { argsDigest, openState, sealState } from "./seal.js";

/** How long a question stays answerable. */
export const STATE_TTL_MS = 10 * 60_000;

/** Records a state's nonce as used: true the first time, false for a replay. */
export type ConsumeState = (nonce: string, expiresAt: number) => Promise<boolean>;

/** run: the call may go ahead with these arguments (the caller's, plus the values the user gave). */
export type Round = { run: true; args: Record<string, unknown> } | { run: false; result: Record<string, unknown> };

/** Where a state is valid: the server's name, and the issuing process when used states are recorded in it alone. */
export interface SealScope {
  server: string;
  instance?: string;
}

export interface RoundInput {
  scope: SealScope;
  tool: Asking;
  args: Record<string, unknown>;
  params: Record<string, unknown> | undefined;
  principal: string;
  key: Buffer;
  consume: ConsumeState;
  /** The client capabilities this request declares: an optional input the client cannot answer is not asked. */
  capabilities?: unknown;
  ttlMs?: number;
  now?: number;
}

/** What a state carries between rounds. */
interface Carried {
  values: Record<string, unknown>;
  confirmed: boolean;
  asked: string[];
  /** Optional inputs an answer left out (an empty roots list): not asked again. */
  skipped: string[];
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((k): k is string => typeof k === "string") : []);

function carried(data: unknown): Carried {
  const d = isObject(data) ? data : {};
  return {
    values: isObject(d.values) ? d.values : {},
    confirmed: d.confirmed === true,
    asked: strings(d.asked),
    skipped: strings(d.skipped),
  };
}

export async function questionRound({ scope, tool, args, params, principal, key, consume, capabilities, ttlMs = STATE_TTL_MS, now = Date.now() }: RoundInput): Promise<Round> {
  const digest = argsDigest(args);
  const unasked = unaskable(tool, capabilities);
  const issue = (values: Record<string, unknown>, confirmed: boolean, skipped: string[] = []): Round => {
    const merged = { ...args, ...values };
    const requests = nextRound(tool, merged, confirmed, new Set([...unasked, ...skipped]));
    if (!requests) return { run: true, args: merged };
    const data: Carried = { values, confirmed, asked: Object.keys(requests), skipped };
    const nonce = randomBytes(16).toString("base64url");
    return { run: false, result: { resultType: "input_required", inputRequests: requests, requestState: sealState(key, { ...scope, tool: tool.name, args: digest, principal, exp: now + ttlMs, nonce, data }) } };
  };
  const state = params?.requestState;
  if (state === undefined) return issue(isObject(params?.inputResponses) ? unsealedValues(tool, args, params.inputResponses) : {}, false);
  const opened = openState(key, state, { ...scope, tool: tool.name, args: digest, principal, now });
  if (!opened.ok) throw new RpcError(INVALID_PARAMS, `Invalid requestState: ${opened.reason}; nothing ran`);
  const { nonce, exp } = opened.claims;
  if (typeof nonce !== "string" || !(await consume(nonce, exp))) {
    throw new RpcError(INVALID_PARAMS, "Invalid requestState: requestState was already used (each one is served once); nothing ran");
  }
  const so_far = carried(opened.claims.data);
  const responses = isObject(params?.inputResponses) ? params.inputResponses : {};
  if (so_far.asked.length === 0 || so_far.asked.some((k) => !Object.hasOwn(responses, k))) return issue(so_far.values, so_far.confirmed, so_far.skipped);
  const settled = settle(tool, { ...args, ...so_far.values }, so_far.asked, responses);
  if (!settled.ok) return { run: false, result: settled.result };
  return issue({ ...so_far.values, ...settled.values }, so_far.confirmed || settled.confirmed, [...so_far.skipped, ...settled.skipped]);
}
