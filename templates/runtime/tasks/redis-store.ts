// The Redis store: every replica of a server shares one Redis, so any replica answers tasks/get for a
// task another one runs. Cancellation and input reach the running replica over pub/sub. Each replica
// holds a lease key it renews; a task whose runner's lease has lapsed (the replica died) is reported
// failed by the next reader, never left working forever. Built on the node-redis client.
import { randomUUID } from "node:crypto";
import { createClient, type RedisClientType } from "@redis/client";
import { NONCE } from "../confirm/used-states.js";
import { log } from "../log.js";
import { addReadinessCheck } from "../health.js";
import { positiveInt, tasksEnv, type TasksEnv } from "./env.js";
import { ANSWER, CREATE, GET, TAKE, UPDATE } from "./redis-scripts.js";
import { isTerminal, StoreUnavailableError, type CapRefusal, type TaskCaps, type TaskPatch, type TaskRecord, type TaskSignal, type TaskStore } from "./types.js";

export const LOST_RUNNER_REASON = "The server replica running this task stopped (its lease expired); the work was lost.";

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type Client = RedisClientType<{}, {}, {}, 3, {}>;

export interface RedisStoreOptions {
  url: string;
  /** Key prefix: servers sharing one Redis keep apart by it. */
  prefix: string;
  /** A replica that has not renewed its lease for this long is taken for dead. */
  leaseMs: number;
  /** Longest wait for any one store operation (and for the first connection). */
  timeoutMs?: number;
}

export const DEFAULT_STORE_TIMEOUT_MS = 2000;

/** Reconnect attempts back off to one a second; commands never wait for a connection (they fail at once). */
const reconnect = (retries: number) => Math.min(50 * 2 ** retries, 1000);

function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split("\n")[0] || (err instanceof Error ? err.name : "error");
}

function pairs(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(reply)) for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}

function toRecord(hash: Record<string, string>): TaskRecord | undefined {
  if (!hash.base || !hash.status) return undefined;
  const record = { ...JSON.parse(hash.base), status: hash.status, lastUpdatedAt: hash.lastUpdatedAt, runner: hash.runner } as TaskRecord;
  if (hash.statusMessage) record.statusMessage = hash.statusMessage;
  if (hash.result) record.result = JSON.parse(hash.result);
  if (hash.error) record.error = JSON.parse(hash.error);
  const inputs: Record<string, unknown> = {};
  const answers: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(hash)) {
    if (field.startsWith("in:")) inputs[field.slice(3)] = JSON.parse(value);
    else if (field.startsWith("ans:")) answers[field.slice(4)] = JSON.parse(value);
  }
  if (Object.keys(inputs).length > 0) record.inputRequests = inputs;
  if (Object.keys(answers).length > 0) record.inputResponses = answers;
  return record;
}

export class RedisTaskStore implements TaskStore {
  readonly kind = "redis" as const;
  readonly replicaId = randomUUID();
  private readonly listeners: ((signal: TaskSignal) => void)[] = [];
  private renewer: NodeJS.Timeout | undefined;
  private up = true;
  private readonly unregister: () => void;

  private constructor(
    private readonly client: Client,
    private readonly subscriber: Client,
    private readonly opts: RedisStoreOptions,
  ) {
    this.unregister = addReadinessCheck(() => (this.up ? undefined : "task store unreachable"));
  }

  private get name(): string {
    return `the task store (redis at ${redactUrl(this.opts.url)})`;
  }

  private get timeoutMs(): number {
    return this.opts.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  }

  /** One log line per change between reachable and unreachable, never one per retry. */
  private mark(up: boolean, why?: unknown): void {
    if (up === this.up) return;
    this.up = up;
    log(up ? `${this.name} is reachable again` : `${this.name} is unreachable (${reasonOf(why)}); retrying, /readyz is 503 until it answers`);
  }

  /** Runs one store operation, failing with the store's name when Redis errs or does not answer in time. */
  private async op<T>(run: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const value = await Promise.race([run(), late]);
      this.mark(true);
      return value;
    } catch (err) {
      this.mark(false, err);
      throw new StoreUnavailableError(`${this.name} is unreachable: ${reasonOf(err)}; try again shortly`);
    } finally {
      clearTimeout(timer);
    }
  }

  static async open(opts: RedisStoreOptions): Promise<RedisTaskStore> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    const options = { url: opts.url, disableOfflineQueue: true, socket: { connectTimeout: timeoutMs, reconnectStrategy: reconnect } };
    const client: Client = createClient(options);
    const subscriber: Client = client.duplicate();
    let store: RedisTaskStore | undefined;
    // Errors are reported through the store's state (one line per change); before it exists, open fails instead.
    // The subscriber reconnects on its own and fails with the client; its errors say nothing more.
    client.on("error", (err) => store?.mark(false, err));
    subscriber.on("error", () => undefined);
    client.on("ready", () => store?.onReady());
    const connect = Promise.all([client.connect(), subscriber.connect()]);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([connect, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)))]);
    } catch (err) {
      client.destroy();
      subscriber.destroy();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    store = new RedisTaskStore(client, subscriber, opts);
    const opened = store;
    await subscriber.subscribe(opened.channel, (message) => opened.deliver(message));
    await opened.renew();
    opened.renewer = setInterval(() => void opened.renew().catch(() => undefined), Math.max(50, Math.floor(opts.leaseMs / 3)));
    opened.renewer.unref();
    return opened;
  }

  /** Back after an outage: the lease first (so this replica's tasks are not read as lost), then reachable. */
  private onReady(): void {
    void this.renew().then(
      () => this.mark(true),
      () => undefined,
    );
  }

  private get channel(): string {
    return `${this.opts.prefix}signals`;
  }

  private key(taskId: string): string {
    return `${this.opts.prefix}task:${taskId}`;
  }

  private get leasePrefix(): string {
    return `${this.opts.prefix}replica:`;
  }

  private async renew(): Promise<void> {
    await this.op(() => this.client.set(this.leasePrefix + this.replicaId, String(process.pid), { expiration: { type: "PX", value: this.opts.leaseMs } }));
  }

  private deliver(message: string): void {
    let signal: TaskSignal;
    try {
      signal = JSON.parse(message) as TaskSignal;
    } catch {
      return;
    }
    for (const listener of this.listeners) listener(signal);
  }

  async create(record: TaskRecord, caps?: TaskCaps): Promise<CapRefusal | undefined> {
    const { status, lastUpdatedAt, runner, statusMessage, inputRequests, inputResponses, result, error, ...base } = record;
    void inputResponses;
    const fields: Record<string, string> = { base: JSON.stringify(base), status, lastUpdatedAt, runner };
    if (statusMessage !== undefined) fields.statusMessage = statusMessage;
    if (result !== undefined) fields.result = JSON.stringify(result);
    if (error !== undefined) fields.error = JSON.stringify(error);
    for (const [k, v] of Object.entries(inputRequests ?? {})) fields[`in:${k}`] = JSON.stringify(v);
    const expiry = Date.parse(record.createdAt) + record.ttlMs;
    const keys = [this.key(record.taskId), `${this.opts.prefix}owner:${record.owner}`, `${this.opts.prefix}tasks`];
    const args = [String(Date.now()), String(expiry), String(caps?.perPrincipal ?? 0), String(caps?.total ?? 0), record.taskId, ...Object.entries(fields).flat()];
    const reply = await this.op(() => this.client.EVAL(CREATE, { keys, arguments: args }));
    return reply === "principal" || reply === "total" ? reply : undefined;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const error = JSON.stringify({ code: -32603, message: LOST_RUNNER_REASON });
    const reply = await this.op(() => this.client.EVAL(GET, { keys: [this.key(taskId)], arguments: [this.leasePrefix, LOST_RUNNER_REASON, error, new Date().toISOString()] }));
    return reply === null ? undefined : toRecord(pairs(reply));
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const args: string[] = [];
    if (patch.status !== undefined) args.push("status", patch.status);
    if (patch.statusMessage !== undefined) args.push("statusMessage", patch.statusMessage);
    if (patch.result !== undefined) args.push("result", JSON.stringify(patch.result));
    if (patch.error !== undefined) args.push("error", JSON.stringify(patch.error));
    for (const [k, v] of Object.entries(patch.inputRequests ?? {})) args.push(`in:${k}`, JSON.stringify(v));
    const clear = patch.inputRequests !== undefined || (patch.status !== undefined && isTerminal(patch.status));
    const reply = await this.op(() => this.client.EVAL(UPDATE, { keys: [this.key(taskId)], arguments: [new Date().toISOString(), clear ? "1" : "0", ...args] }));
    return reply === null ? undefined : toRecord(pairs(reply));
  }

  async answer(taskId: string, responses: Record<string, unknown>): Promise<string[]> {
    const args: string[] = [];
    for (const [k, v] of Object.entries(responses)) args.push(k, JSON.stringify(v ?? null));
    const reply = await this.op(() => this.client.EVAL(ANSWER, { keys: [this.key(taskId)], arguments: [new Date().toISOString(), ...args] }));
    return Array.isArray(reply) ? reply.map(String) : [];
  }

  async takeResponses(taskId: string): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(pairs(await this.op(() => this.client.EVAL(TAKE, { keys: [this.key(taskId)] }))))) out[k] = JSON.parse(v);
    return out;
  }

  /** SET NX with the state's remaining life: exactly one replica's SET succeeds for a nonce. */
  async consumeState(nonce: string, expiresAt: number): Promise<boolean> {
    if (!NONCE.test(nonce)) return false;
    const ms = Math.max(1, expiresAt - Date.now());
    const reply = await this.op(() => this.client.set(`${this.opts.prefix}state:${nonce}`, "1", { condition: "NX", expiration: { type: "PX", value: ms } }));
    return reply === "OK";
  }

  async signal(signal: TaskSignal): Promise<void> {
    await this.op(() => this.client.publish(this.channel, JSON.stringify(signal)));
  }

  onSignal(listener: (signal: TaskSignal) => void): void {
    this.listeners.push(listener);
  }

  /** Ends the lease at once: tasks this replica still runs read as failed from now on. */
  async close(): Promise<void> {
    clearInterval(this.renewer);
    this.unregister();
    await this.op(() => this.client.del(this.leasePrefix + this.replicaId)).catch(() => undefined);
    await Promise.allSettled([this.subscriber.close(), this.client.close()]);
    if (!this.up) {
      this.client.destroy();
      this.subscriber.destroy();
    }
  }
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unreadable URL)";
  }
}

/** The Redis store at KERVAN_TASKS_REDIS_URL, keys under kervan:<server>:, lease KERVAN_TASKS_LEASE_MS (10 s). */
export async function openRedisStore(server: string, env: TasksEnv = tasksEnv()): Promise<RedisTaskStore> {
  const url = env.KERVAN_TASKS_REDIS_URL;
  if (!url) throw new Error("KERVAN_TASKS_REDIS_URL must name the Redis that keeps this server's tasks (its task store is `redis`)");
  const lease = Number(env.KERVAN_TASKS_LEASE_MS ?? 10_000);
  if (!Number.isInteger(lease) || lease < 100) throw new Error("KERVAN_TASKS_LEASE_MS must be an integer of at least 100 (milliseconds)");
  const timeoutMs = positiveInt(env, "KERVAN_TASKS_STORE_TIMEOUT_MS", DEFAULT_STORE_TIMEOUT_MS);
  try {
    return await RedisTaskStore.open({ url, prefix: `kervan:${server}:`, leaseMs: lease, timeoutMs });
  } catch (err) {
    throw new Error(`cannot reach the task store at ${redactUrl(url)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
