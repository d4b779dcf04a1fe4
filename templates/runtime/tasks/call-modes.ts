// How one tools/call runs: as a task (tasks extension declared and the tool supports tasks), after its
// questions (MRTR under 2026-07-28, requests to the client under 2025-11-25), or plainly. A question the
// client cannot answer (it did not declare elicitation, sampling or roots) is left out when its input is
// optional, else refused before anything runs: -32021 naming the capability (2026-07-28), a tool error
// (2025-11-25). A task asks its questions inside the task (input_required; an answer may come as late
// as the task lives), or, with `questions: before-task`, as a multi round-trip request before the task
// is created.
import { INTERNAL_ERROR, RpcError } from "../jsonrpc.js";
import { callTool, ToolFault } from "../tools.js";
import { questionRound, type ConsumeState, type SealScope } from "../confirm/mrtr.js";
import { askAll, hasQuestions, missingCapabilities, nextRound, unaskable } from "../confirm/questions.js";
import { TaskCapError, taskFields, type TaskManager } from "./manager.js";
import { clientCapabilities, declaresTasks, missingCapability, tasksRequired } from "./methods.js";
import type { CallContext, ClientAsker, ModeCall as CallInput, ToolDef } from "../types.js";

export interface CallModes {
  tasks?: TaskManager;
  /** The requestState sealing key. */
  stateKey: Buffer;
  /** What a sealed state is bound to besides the call. */
  sealScope: SealScope;
  /** How long a question stays answerable. */
  confirmTtlMs?: number;
  /** Where used requestStates are recorded: the task store, or this process when the server has none. */
  consumeState: ConsumeState;
}

/** 2025-11-25: each question as a request to the client (elicitation, sampling, roots), one after another. */
async function askClient(tool: ToolDef, args: Record<string, unknown>, asker: ClientAsker | undefined, unasked: ReadonlySet<string>) {
  if (!nextRound(tool, args, false, unasked)) return { ok: true as const, args };
  if (!asker) return { ok: false as const, result: cannotAsk(tool, ["answers from the client"], undefined) };
  try {
    return await askAll(tool, args, async (requests) => {
      const answers: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(requests)) answers[key] = await asker.request(request.method as string, request.params as Record<string, unknown>);
      return answers;
    }, unasked);
  } catch (err) {
    return { ok: false as const, result: { content: [{ type: "text", text: `${tool.name} did not run: the question could not be asked (${err instanceof Error ? err.message : String(err)}).` }], isError: true } };
  }
}

/** A 2025-11-25 call that would ask its client for something it cannot answer: what is missing, as a tool error. */
function cannotAsk(tool: ToolDef, what: string[], asker: ClientAsker | undefined, capabilities: string[] = []): Record<string, unknown> {
  const why = asker
    ? `the client declared no ${capabilities.join(" or ")} capability at initialize`
    : "this connection cannot carry the question (over HTTP the call must accept an event stream)";
  return { content: [{ type: "text", text: `${tool.name} did not run: it needs ${what.join(", ")}, and ${why}.` }], isError: true };
}

export async function runCall(modes: CallModes, { tool, args, params, ctx, principal, asker }: CallInput): Promise<Record<string, unknown>> {
  const modern = ctx.era === "2026-07-28";
  const asTask = modern && tool.task !== undefined && modes.tasks !== undefined && declaresTasks(params);
  if (tool.task === "required" && !asTask) throw tasksRequired();
  // What the client declared: each request's _meta (2026-07-28), or its initialize (2025-11-25, when this connection can ask it at all).
  const capabilities = modern ? clientCapabilities(params) : asker?.capabilities;
  const missing = hasQuestions(tool) ? missingCapabilities(tool, args, capabilities) : undefined;
  if (missing && modern) throw missingCapability(missing.required, `${tool.name} needs ${missing.what.join(", ")}`);
  // Arguments that could never run are refused before anyone is asked anything and before a task exists.
  if ((hasQuestions(tool) || asTask) && !tool.validateInput(args)) return callTool(tool, args, ctx);
  if (missing) return cannotAsk(tool, missing.what, asker, Object.keys(missing.required));
  if (!hasQuestions(tool)) return asTask ? startTask(modes.tasks!, tool, args, ctx, principal, undefined) : callTool(tool, args, ctx);
  const unasked = unaskable(tool, capabilities);
  if (asTask && tool.questions !== "before-task") return startTask(modes.tasks!, tool, args, ctx, principal, unasked);
  let ready: Record<string, unknown>;
  if (modern) {
    const round = await questionRound({ scope: modes.sealScope, tool, args, params, principal, key: modes.stateKey, consume: modes.consumeState, capabilities, ...(modes.confirmTtlMs ? { ttlMs: modes.confirmTtlMs } : {}) });
    if (!round.run) return round.result;
    ready = round.args;
  } else {
    const asked = await askClient(tool, args, asker, unasked);
    if (!asked.ok) return asked.result;
    ready = asked.args;
  }
  return asTask ? startTask(modes.tasks!, tool, ready, ctx, principal, undefined) : callTool(tool, ready, ctx);
}

/** `unasked`: ask the task's questions inside it, leaving out these inputs; undefined: ask nothing. */
async function startTask(tasks: TaskManager, tool: ToolDef, args: Record<string, unknown>, ctx: CallContext, principal: string, unasked: ReadonlySet<string> | undefined): Promise<Record<string, unknown>> {
  try {
    return await createTask(tasks, tool, args, ctx, principal, unasked);
  } catch (err) {
    if (err instanceof TaskCapError) return { content: [{ type: "text", text: err.message }], isError: true };
    throw err;
  }
}

async function createTask(tasks: TaskManager, tool: ToolDef, args: Record<string, unknown>, ctx: CallContext, principal: string, unasked: ReadonlySet<string> | undefined): Promise<Record<string, unknown>> {
  const record = await tasks.start(tool.name, principal, async (work) => {
    let ready = args;
    if (unasked) {
      const asked = await askAll(tool, args, (requests) => work.ask(requests), unasked);
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
