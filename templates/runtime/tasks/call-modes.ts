// How one tools/call runs: as a task (tasks extension declared and the tool supports tasks), after a
// confirmation round (MRTR under 2026-07-28), or plainly. Checks that need a client capability answer
// -32021 naming it before anything runs.
import { INTERNAL_ERROR, RpcError } from "../jsonrpc.js";
import { callTool, ToolFault } from "../tools.js";
import { canElicit } from "../client-requests.js";
import { confirmRequest, inputKey, isConfirmed, notConfirmed, renderMessage } from "../confirm/confirm.js";
import { confirmRound, type ConsumeState } from "../confirm/mrtr.js";
import { taskFields, type TaskManager } from "./manager.js";
import { clientCapabilities, declaresTasks, missingCapability, tasksRequired } from "./methods.js";
import type { CallContext, ModeCall as CallInput, ToolDef } from "../types.js";

export interface CallModes {
  tasks?: TaskManager;
  /** The requestState sealing key. */
  stateKey: Buffer;
  /** How long a confirmation question stays answerable. */
  confirmTtlMs?: number;
  /** Where used requestStates are recorded: the task store, or this process when the server has none. */
  consumeState: ConsumeState;
}


function elicitationRequired(tool: string): RpcError {
  return missingCapability({ elicitation: {} }, `${tool} asks the user to confirm before it runs, which needs form elicitation`);
}

export async function runCall(modes: CallModes, { tool, args, params, ctx, principal, elicit }: CallInput): Promise<Record<string, unknown>> {
  const modern = ctx.era === "2026-07-28";
  const asTask = modern && tool.task !== undefined && modes.tasks !== undefined && declaresTasks(params);
  if (tool.task === "required" && !asTask) throw tasksRequired();
  if (tool.confirm && modern && !canElicit(clientCapabilities(params))) throw elicitationRequired(tool.name);
  if (asTask) return startTask(modes.tasks!, tool, args, ctx, principal);
  if (tool.confirm) {
    if (modern) {
      const round = await confirmRound({ tool, args, params, principal, key: modes.stateKey, consume: modes.consumeState, ...(modes.confirmTtlMs ? { ttlMs: modes.confirmTtlMs } : {}) });
      if (!round.run) return round.result;
    } else {
      const message = renderMessage(tool.confirm.message, args);
      if (!elicit) {
        return { content: [{ type: "text", text: `${tool.name} did not run: it asks the user to confirm first (${message}), and this connection cannot ask (the client declared no elicitation capability, or it is a 2025-11-25 client over HTTP, which keeps no session to answer on; use stdio or 2026-07-28).` }], isError: true };
      }
      let answer: unknown;
      try {
        answer = await elicit(confirmRequest(message).params as Record<string, unknown>);
      } catch (err) {
        return { content: [{ type: "text", text: `${tool.name} did not run: the confirmation could not be asked (${err instanceof Error ? err.message : String(err)}).` }], isError: true };
      }
      if (!isConfirmed(answer)) return notConfirmed(tool.name, answer, message);
    }
  }
  return callTool(tool, args, ctx);
}

async function startTask(tasks: TaskManager, tool: ToolDef, args: Record<string, unknown>, ctx: CallContext, principal: string): Promise<Record<string, unknown>> {
  const record = await tasks.start(tool.name, principal, async (work) => {
    if (tool.confirm) {
      const message = renderMessage(tool.confirm.message, args);
      const key = inputKey(tool.confirm);
      const answers = await work.ask({ [key]: confirmRequest(message) });
      if (!isConfirmed(answers[key])) return notConfirmed(tool.name, answers[key], message);
    }
    try {
      // Progress is not sent for tasks (the extension does not carry it); the task outlives the request.
      return await callTool(tool, args, { era: ctx.era, signal: work.signal, ...(ctx.server ? { server: ctx.server } : {}) }, true);
    } catch (err) {
      if (err instanceof ToolFault) throw new RpcError(INTERNAL_ERROR, err.message);
      throw err;
    }
  });
  return { resultType: "task", ...taskFields(record) };
}
