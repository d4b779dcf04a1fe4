// Opens what a server needs for tasks and confirmations at startup: the task store the spec chose (its
// location from the environment) and the key that seals confirmation state.
import { log } from "../log.js";
import { parseStateKey } from "../confirm/seal.js";
import { StartupError, type ServerDef } from "../types.js";
import { DEFAULT_CAPS, positiveInt, tasksEnv, type TasksEnv } from "./env.js";
import { TaskManager, type TaskSettings } from "./manager.js";
import { MemoryTaskStore } from "./memory-store.js";
import type { TaskStore } from "./types.js";

/** The caps: the environment's, else the spec's, else the defaults. */
function taskCaps(tasks: NonNullable<ServerDef["tasks"]>, env: TasksEnv): Pick<TaskSettings, "caps" | "maxResultBytes"> {
  try {
    return {
      caps: {
        perPrincipal: positiveInt(env, "KERVAN_TASKS_MAX_PER_PRINCIPAL", tasks.maxPerPrincipal ?? DEFAULT_CAPS.perPrincipal),
        total: positiveInt(env, "KERVAN_TASKS_MAX", tasks.maxTasks ?? DEFAULT_CAPS.total),
      },
      maxResultBytes: positiveInt(env, "KERVAN_TASKS_MAX_RESULT_BYTES", tasks.maxResultBytes ?? DEFAULT_CAPS.maxResultBytes),
    };
  } catch (err) {
    throw new StartupError((err as Error).message);
  }
}

export async function openTasks(def: ServerDef, env: TasksEnv = tasksEnv()): Promise<TaskManager | undefined> {
  const tasks = def.tasks;
  if (!tasks) return undefined;
  let store: TaskStore;
  if (tasks.store === "memory" || env.KERVAN_TASK_STORE === "memory" || !tasks.open) store = new MemoryTaskStore();
  else {
    try {
      store = await tasks.open();
    } catch (err) {
      throw new StartupError(err instanceof Error ? err.message : String(err));
    }
  }
  return new TaskManager(store, { ttlMs: tasks.ttlMs, pollIntervalMs: tasks.pollIntervalMs, ...taskCaps(tasks, env) });
}

/** KERVAN_STATE_KEY (64 hex digits or base64 of 32 bytes); without it, a key for this process only. */
export function stateKeyFrom(def: ServerDef, fallback: Buffer, env: TasksEnv = tasksEnv()): Buffer {
  const text = env.KERVAN_STATE_KEY;
  if (text !== undefined && text !== "") {
    const key = parseStateKey(text);
    if (!key) throw new StartupError("KERVAN_STATE_KEY must be 32 bytes as 64 hex digits or base64");
    return key;
  }
  if (def.tools.some((t) => t.confirm || t.ask) || def.prompts?.some((p) => p.ask)) {
    log("KERVAN_STATE_KEY is not set: confirmation state is sealed with a key of this process only (replicas and restarts will not accept each other's)");
  }
  return fallback;
}
