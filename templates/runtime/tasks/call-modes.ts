// How one tools/call runs: as a task (tasks extension declared and the tool supports tasks), after its
// questions (MRTR under 2026-07-28, elicitation requests under 2025-11-25), or plainly. Checks that need
// a client capability answer -32021 naming it before anything runs. A task asks its questions inside
// the task (input_required; an answer may come as late as the task lives), or, with
// `questions: before-task`, as a multi round-trip request before the task is created.
import { INTERNAL_ERROR, RpcError } from "../jsonrpc.js";
import { callTool, ToolFault } from "../tools.js";
import { canElicit } from "../client-requests.js";
import { questionRound, type ConsumeState } from "../confirm/mrtr.js";
import { askAll, hasQuestions, nextRound, type Requests } from "../confirm/questions.js";
import { taskFields, type TaskManager } from "./manager.js";
import { clientCapabilities, declaresTasks, missingCapability, tasksRequired } from "./methods.js";
import type { CallContext, ModeCall as CallInput, ToolDef } from "../types.js";

export interface CallModes {
  tasks?: TaskManager;
  /** The requestState sealing key. */
  stateKey: Buffer;
  /** How long a question stays answerable. */
  confirmTtlMs?: number;
  /** Where used requestStates are recorded: the task store, or this process when the server has none. */
  consumeState: ConsumeState;
}

function elicitationRequired(tool: string): RpcError {
  return missingCapability({ elicitation: {} }, `${tool} asks the user before it runs, which needs form elicitation`);
}

function messages(requests: Requests): string {
  return Object.values(requests)
    .map((r) => String((r.params as Record<string, unknown>).message))
    .join(" / ");
}

/** 2025-11-25: each question as an elicitation/create request, one after another. */
async function elicitAll(tool: ToolDef, args: Record<string, unknown>, elicit: CallInput["elicit"]) {
  const first = nextRound(tool, args, false);
  if (!first) return { ok: true as const, args };
  if (!elicit) {
    return { ok: false as const, result: { content: [{ type: "text", text: `${tool.name} did not run: it asks the user first (${messages(first)}), and this connection cannot ask (the client declared no elicitation capability at initialize, or over HTTP its call does not accept an event stream to carry the question).` }], isError: true } };
  }
  try {
    return await askAll(tool, args, async (requests) => {
      const answers: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(requests)) answers[key] = await elicit(request.params as Record<string, unknown>);
      return answers;
    });
  } catch (err) {
    return { ok: false as const, result: { content: [{ type: "text", text: `${tool.name} did not run: the question could not be asked (${err instanceof Error ? err.message : String(err)}).` }], isError: true } };
  }
}

export async function runCall(modes: CallModes, { tool, args, params, ctx, principal, elicit }: CallInput): Promise<Record<string, unknown>> {
  const modern = ctx.era === "2026-07-28";
  const asTask = modern && tool.task !== undefined && modes.tasks !== undefined && declaresTasks(params);
  if (tool.task === "required" && !asTask) throw tasksRequired();
  if (modern && nextRound(tool, args, false) && !canElicit(clientCapabilities(params))) throw elicitationRequired(tool.name);
  // Arguments that could never run are refused before anyone is asked anything.
  if (hasQuestions(tool) && !tool.validateInput(args)) return callTool(tool, args, ctx);
  if (!hasQuestions(tool)) return asTask ? startTask(modes.tasks!, tool, args, ctx, principal, false) : callTool(tool, args, ctx);
  if (asTask && tool.questions !== "before-task") return startTask(modes.tasks!, tool, args, ctx, principal, true);
  let ready: Record<string, unknown>;
  if (modern) {
    const round = await questionRound({ tool, args, params, principal, key: modes.stateKey, consume: modes.consumeState, ...(modes.confirmTtlMs ? { ttlMs: modes.confirmTtlMs } : {}) });
    if (!round.run) return round.result;
    ready = round.args;
  } else {
    const asked = await elicitAll(tool, args, elicit);
    if (!asked.ok) return asked.result;
    ready = asked.args;
  }
  return asTask ? startTask(modes.tasks!, tool, ready, ctx, principal, false) : callTool(tool, ready, ctx);
}

async function startTask(tasks: TaskManager, tool: ToolDef, args: Record<string, unknown>, ctx: CallContext, principal: string, ask: boolean): Promise<Record<string, unknown>> {
  const record = await tasks.start(tool.name, principal, async (work) => {
    let ready = args;
    if (ask) {
      const asked = await askAll(tool, args, (requests) => work.ask(requests));
      if (!asked.ok) return asked.result;
      ready = asked.args;
    }
    try {
      // Progress is not sent for tasks (the extension does not carry it); the task outlives the request.
      return await callTool(tool, ready, { era: ctx.era, signal: work.signal, ...(ctx.server ? { server: ctx.server } : {}) }, true);
    } catch (err) {
      if (err instanceof ToolFault) throw new RpcError(INTERNAL_ERROR, err.message);
      throw err;
    }
  });
  return { resultType: "task", ...taskFields(record) };
}
