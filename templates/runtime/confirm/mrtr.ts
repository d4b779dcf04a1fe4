// The confirmation round of a plain (non-task) tools/call under 2026-07-28, as a multi round-trip
// request: the first call answers input_required with the elicitation and a sealed requestState; the
// retry carries the answer and that state. The state must open under our key and match this tool, these
// arguments and this principal, and not be expired; otherwise the retry is refused and nothing runs.
// Each state is single-use: its nonce is consumed in the task store (shared by replicas with Redis), so
// a state replayed, even for the same call, is refused. A retry whose answer is missing is asked again.
import { INVALID_PARAMS, isObject, RpcError } from "../jsonrpc.js";
import type { ToolDef } from "../types.js";
import { confirmRequest, inputKey, isConfirmed, notConfirmed, renderMessage } from "./confirm.js";
import { argsDigest, openState, sealState } from "./seal.js";
import { randomBytes } from "node:crypto";

/** Records a state's nonce as used: true the first time, false for a replay. */
export type ConsumeState = (nonce: string, expiresAt: number) => Promise<boolean>;

/** How long a confirmation question stays answerable. */
export const STATE_TTL_MS = 10 * 60_000;

export type Round = { run: true } | { run: false; result: Record<string, unknown> };

export interface RoundInput {
  tool: ToolDef;
  args: Record<string, unknown>;
  params: Record<string, unknown> | undefined;
  principal: string;
  key: Buffer;
  consume: ConsumeState;
  ttlMs?: number;
  now?: number;
}

export async function confirmRound({ tool, args, params, principal, key, consume, ttlMs = STATE_TTL_MS, now = Date.now() }: RoundInput): Promise<Round> {
  const def = tool.confirm!;
  const message = renderMessage(def.message, args);
  const digest = argsDigest(args);
  const ask = (): Round => ({
    run: false,
    result: {
      resultType: "input_required",
      inputRequests: { [inputKey(def)]: confirmRequest(message) },
      requestState: sealState(key, { tool: tool.name, args: digest, principal, exp: now + ttlMs, nonce: randomBytes(16).toString("base64url") }),
    },
  });
  const state = params?.requestState;
  if (state === undefined) return ask();
  const opened = openState(key, state, { tool: tool.name, args: digest, principal, now });
  if (!opened.ok) throw new RpcError(INVALID_PARAMS, `Invalid requestState: ${opened.reason}; nothing ran`);
  const { nonce, exp } = opened.claims;
  if (typeof nonce !== "string" || !(await consume(nonce, exp))) {
    throw new RpcError(INVALID_PARAMS, "Invalid requestState: requestState was already used (each one is served once); nothing ran");
  }
  const responses = params?.inputResponses;
  const answer = isObject(responses) ? responses[inputKey(def)] : undefined;
  if (answer === undefined) return ask();
  return isConfirmed(answer) ? { run: true } : { run: false, result: notConfirmed(tool.name, answer, message) };
}
