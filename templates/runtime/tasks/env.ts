// The environment variables tasks and confirmations read, all in one list (AUDIT.md names each one for
// servers that have tasks or confirmations, and the bundle test holds the runtime to this list).
export const TASKS_ENV = ["KERVAN_TASK_STORE", "KERVAN_TASKS_DIR", "KERVAN_TASKS_REDIS_URL", "KERVAN_TASKS_LEASE_MS", "KERVAN_STATE_KEY", "KERVAN_CONFIRM_TTL_MS"] as const;

export type TasksEnv = Partial<Record<(typeof TASKS_ENV)[number], string>>;

/** The listed variables from the process environment (or `from`), nothing else. */
export function tasksEnv(from: Record<string, string | undefined> = process.env): TasksEnv {
  const out: TasksEnv = {};
  for (const name of TASKS_ENV) if (from[name] !== undefined) out[name] = from[name];
  return out;
}
