// The questions of a prompts/get whose prompt asks the user for arguments the caller left out, in the
// same rounds as a tool's (questions.ts): under 2026-07-28 a multi round-trip request (input_required
// with a sealed requestState bound to "prompt <name>", these arguments and this principal); under
// 2025-11-25 elicitation/create requests, where the client declared elicitation. A prompt has no
// tool error to report with, so an answer that does not give the value, or a client that cannot be
// asked, is -32602 with the reason, and nothing is rendered.
import { INVALID_PARAMS, isObject, RpcError } from "../jsonrpc.js";
import { clientCapabilities, missingCapability } from "../tasks/methods.js";
import type { PromptAsked, PromptCall } from "../types.js";
import { questionRound, type ConsumeState, type SealScope } from "./mrtr.js";
import { askAll, missingCapabilities, nextRound, type Asking, type Requests } from "./questions.js";

export interface PromptModes {
  stateKey: Buffer;
  /** What a sealed state is bound to besides the call. */
  sealScope: SealScope;
  confirmTtlMs?: number;
  consumeState: ConsumeState;
}

function refused(result: Record<string, unknown>): RpcError {
  const content = Array.isArray(result.content) ? result.content[0] : undefined;
  const text = isObject(content) && typeof content.text === "string" ? content.text : "the user did not give the arguments it needs";
  return new RpcError(INVALID_PARAMS, text.replace(/ did not run: /, " was not rendered: "));
}

function questions(requests: Requests): string {
  return Object.values(requests)
    .map((r) => String((r.params as Record<string, unknown>).message))
    .join(" / ");
}

export async function askForPrompt(modes: PromptModes, { prompt, args, params, era, principal, elicit }: PromptCall): Promise<PromptAsked> {
  const asking: Asking = { name: `prompt ${prompt.name}`, ...(prompt.ask ? { ask: prompt.ask } : {}) };
  const first = nextRound(asking, args, false);
  if (!first) return { run: true, args };
  if (era === "2026-07-28") {
    const missing = missingCapabilities(asking, args, clientCapabilities(params));
    if (missing) throw missingCapability(missing.required, `prompt ${prompt.name} needs ${missing.what.join(", ")}`);
    const round = await questionRound({ scope: modes.sealScope, tool: asking, args, params, principal, key: modes.stateKey, consume: modes.consumeState, ...(modes.confirmTtlMs ? { ttlMs: modes.confirmTtlMs } : {}) });
    if (round.run) return round;
    if (round.result.resultType === "input_required") return round;
    throw refused(round.result);
  }
  if (!elicit) {
    throw new RpcError(INVALID_PARAMS, `Invalid params: prompt "${prompt.name}" needs ${(prompt.ask ?? []).filter((q) => !Object.hasOwn(args, q.field)).map((q) => q.field).join(", ")} (it would ask: ${questions(first)}), and this connection cannot ask the user (no elicitation capability declared at initialize, or an HTTP call that does not accept an event stream): give it as an argument`);
  }
  let asked;
  try {
    asked = await askAll(asking, args, async (requests) => {
      const answers: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(requests)) answers[key] = await elicit(request.params as Record<string, unknown>);
      return answers;
    });
  } catch (err) {
    throw new RpcError(INVALID_PARAMS, `prompt ${prompt.name} was not rendered: the question could not be asked (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!asked.ok) throw refused(asked.result);
  return { run: true, args: asked.args };
}
