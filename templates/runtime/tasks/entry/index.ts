// Entry for servers with tools that run as tasks or ask for confirmation, or prompts that ask for
// arguments: the emitted server hands `callModes` to the runtime, so other servers carry none of this code.
import { randomBytes, randomUUID } from "node:crypto";
import { StartupError, type ModesFactory } from "../../types.js";
import { runCall } from "../call-modes.js";
import { serveTaskMethod } from "../methods.js";
import { openTasks, stateKeyFrom } from "../open.js";
import { tasksEnv } from "../env.js";
import { UsedStates } from "../../confirm/used-states.js";
import { askForPrompt } from "../../confirm/prompt-questions.js";

/** KERVAN_CONFIRM_TTL_MS: how long a confirmation question stays answerable (10 minutes). */
function confirmTtl(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 1) throw new StartupError("KERVAN_CONFIRM_TTL_MS must be a positive integer (milliseconds)");
  return ms;
}

export const callModes: ModesFactory = async (def) => {
  const env = tasksEnv();
  const stateKey = stateKeyFrom(def, randomBytes(32), env);
  const confirmTtlMs = confirmTtl(env.KERVAN_CONFIRM_TTL_MS);
  const tasks = await openTasks(def, env);
  // Without a task store (no tool runs as a task), used states are recorded in this process.
  const local = new UsedStates();
  const consumeState = tasks ? (nonce: string, exp: number) => tasks.store.consumeState(nonce, exp) : async (nonce: string, exp: number) => (local.sweep(), local.consume(nonce, exp));
  // A state is bound to this server's name, and to this process while the single-use record lives in it
  // alone (no task store, or the memory store): a restart or another replica then refuses it.
  const shared = tasks !== undefined && tasks.store.kind !== "memory";
  const sealScope = { server: def.name, ...(shared ? {} : { instance: randomUUID() }) };
  const modes = { tasks, stateKey, sealScope, confirmTtlMs, consumeState };
  return {
    run: (call) => runCall(modes, call),
    askPrompt: (call) => askForPrompt(modes, call),
    serveTaskMethod: (method, params, principal, mayUse) => serveTaskMethod(tasks, method, params, principal, mayUse),
    close: async () => {
      await tasks?.close();
    },
  };
};
