// The environment variables tasks and confirmations read, all in one list (AUDIT.md names each one for
// servers that have tasks or confirmations, and the bundle test holds the runtime to this list).
export const TASKS_ENV = ["KERVAN_TASK_STORE", "KERVAN_TASKS_DIR", "KERVAN_TASKS_REDIS_URL", "KERVAN_TASKS_LEASE_MS", "KERVAN_STATE_KEY", "KERVAN_CONFIRM_TTL_MS", "KERVAN_TASKS_MAX_PER_PRINCIPAL", "KERVAN_TASKS_MAX", "KERVAN_TASKS_MAX_RESULT_BYTES", "KERVAN_TASKS_STORE_TIMEOUT_MS"] as const;

export type TasksEnv = Partial<Record<(typeof TASKS_ENV)[number], string>>;

/** A positive integer from the environment, else `fallback`; a bad value stops the server with its name. */
export function positiveInt(env: TasksEnv, name: (typeof TASKS_ENV)[number], fallback: number): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** The listed variables from the process environment (or `from`), nothing else. */
export function tasksEnv(from: Record<string, string | undefined> = process.env): TasksEnv {
  const out: TasksEnv = {};
  for (const name of TASKS_ENV) if (from[name] !== undefined) out[name] = from[name];
  return out;
}

/** The caps when neither the spec nor the environment gives them (docs/tasks.md, AUDIT.md). */
export const DEFAULT_CAPS = { perPrincipal: 100, total: 1000, maxResultBytes: 262_144 } as const;
