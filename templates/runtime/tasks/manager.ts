// Runs task-augmented tool calls: creates the task durably, runs the work on this replica, records its
// end (completed with the tool result, failed with a JSON-RPC error, or cancelled), parks it in
// input_required while it waits for the client's answers, and acts on cancel/input signals from any
// replica. On shutdown the tasks still running here are marked failed with the reason.
import { randomUUID } from "node:crypto";
import { INTERNAL_ERROR, RpcError } from "../jsonrpc.js";
import { describeError, log } from "../log.js";
import { isTerminal, StoreUnavailableError, type CapRefusal, type TaskCaps, type TaskError, type TaskPatch, type TaskRecord, type TaskStore } from "./types.js";

export interface TaskSettings {
  ttlMs: number;
  pollIntervalMs: number;
  /** Tasks kept at once (unexpired, finished ones included), per principal and in all. */
  caps: TaskCaps;
  /** The largest result kept, in bytes of JSON: a larger one fails its task. */
  maxResultBytes: number;
}

export { DEFAULT_CAPS } from "./env.js";

/** A task refused at creation because a cap was reached: nothing was written and nothing ran. */
export class TaskCapError extends Error {}

function capMessage(tool: string, passed: CapRefusal, settings: TaskSettings): string {
  const keep = `finished tasks count until they expire, ${Math.round(settings.ttlMs / 1000)} s after they start`;
  return passed === "principal"
    ? `${tool} did not run: this caller already keeps ${settings.caps.perPrincipal} tasks, the most one caller may (${keep}).`
    : `${tool} did not run: the server already keeps ${settings.caps.total} tasks, the most it keeps at once (${keep}); try again later.`;
}

/** The failure recorded instead of a result over the cap. */
export function resultTooLarge(bytes: number, cap: number): TaskError {
  return { code: INTERNAL_ERROR, message: `The task's result was ${bytes} bytes of JSON, more than the ${cap} the task store keeps; it was dropped.` };
}

/** What the work of a task may do besides running: ask the client and learn it was cancelled. */
export interface TaskWork {
  signal: AbortSignal;
  /** Parks the task in input_required with these requests; resolves with every answer. */
  ask(requests: Record<string, unknown>): Promise<Record<string, unknown>>;
}

interface Running {
  controller: AbortController;
  wake: () => void;
}

export const SHUTDOWN_REASON = "The server stopped while this task was running; its work was stopped.";
const CANCELLED_MESSAGE = "Cancelled at the client's request.";

function asTaskError(err: unknown): TaskError {
  if (err instanceof RpcError) return { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) };
  return { code: INTERNAL_ERROR, message: err instanceof Error ? err.message : String(err) };
}

export class TaskManager {
  private readonly running = new Map<string, Running>();
  private closing = false;

  constructor(
    readonly store: TaskStore,
    readonly settings: TaskSettings,
  ) {
    store.onSignal(({ taskId, kind }) => {
      const run = this.running.get(taskId);
      if (!run) return;
      if (kind === "cancel") run.controller.abort();
      else run.wake();
    });
  }

  /** Creates the task (durable before this resolves) and starts its work in the background. */
  async start(tool: string, owner: string, work: (w: TaskWork) => Promise<Record<string, unknown>>): Promise<TaskRecord> {
    const now = new Date().toISOString();
    const record: TaskRecord = {
      taskId: randomUUID(),
      owner,
      tool,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.settings.ttlMs,
      pollIntervalMs: this.settings.pollIntervalMs,
      runner: this.store.replicaId,
    };
    const passed = await this.store.create(record, this.settings.caps);
    if (passed) throw new TaskCapError(capMessage(tool, passed, this.settings));
    const controller = new AbortController();
    let wake = () => {};
    const run: Running = { controller, wake: () => wake() };
    this.running.set(record.taskId, run);
    const ask = async (requests: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const parked = await this.store.update(record.taskId, { status: "input_required", inputRequests: requests });
      if (!parked) throw controller.signal.reason ?? new Error("task ended");
      // Answers arrive through tasks/update on any replica; a signal wakes us, a slow poll covers a lost one.
      for (;;) {
        const current = await this.store.get(record.taskId);
        if (!current || isTerminal(current.status)) throw new Error("task ended while waiting for input");
        if (!current.inputRequests) return this.store.takeResponses(record.taskId);
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => {
            clearTimeout(timer);
            reject(new Error("cancelled"));
          };
          const done = () => {
            clearTimeout(timer);
            controller.signal.removeEventListener("abort", onAbort);
            resolve();
          };
          const timer = setTimeout(done, Math.max(250, this.settings.pollIntervalMs));
          wake = done;
          if (controller.signal.aborted) return onAbort();
          controller.signal.addEventListener("abort", onAbort, { once: true });
        });
      }
    };
    void this.finish(record.taskId, controller, () => work({ signal: controller.signal, ask }), Date.parse(now) + this.settings.ttlMs);
    return record;
  }

  private async finish(taskId: string, controller: AbortController, run: () => Promise<Record<string, unknown>>, expiresAt: number): Promise<void> {
    let end: TaskPatch | undefined;
    try {
      const result = await run();
      const bytes = Buffer.byteLength(JSON.stringify(result));
      const error = bytes > this.settings.maxResultBytes ? resultTooLarge(bytes, this.settings.maxResultBytes) : undefined;
      end = error ? { status: "failed", statusMessage: error.message, error } : { status: "completed", result };
    } catch (err) {
      if (!controller.signal.aborted) {
        log(`task ${taskId} failed: ${err instanceof RpcError ? err.message : describeError(err)}`);
        const error = asTaskError(err);
        end = { status: "failed", statusMessage: error.message, error };
      }
    } finally {
      this.running.delete(taskId);
    }
    // A cancelled task is already terminal in the store, so this write is refused and cancelled stays.
    if (end) await this.record(taskId, end, expiresAt);
  }

  /** Writes a task's end, again and again while the store is unreachable, for as long as the task lives. */
  private async record(taskId: string, end: TaskPatch, expiresAt: number): Promise<void> {
    for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
      try {
        await this.store.update(taskId, end);
        return;
      } catch (err) {
        if (!(err instanceof StoreUnavailableError) || this.closing || Date.now() + wait >= expiresAt) {
          log(`task ${taskId}: its end was not recorded: ${err instanceof RpcError ? err.message : describeError(err)}`);
          return;
        }
        await new Promise((r) => setTimeout(r, wait).unref());
      }
    }
  }

  /** The task if it exists and belongs to this principal; otherwise -32602 (no one learns of others' tasks). */
  async read(taskId: unknown, owner: string): Promise<TaskRecord> {
    const record = typeof taskId === "string" ? await this.store.get(taskId) : undefined;
    if (!record || record.owner !== owner) throw new RpcError(-32602, "Failed to retrieve task: Task not found", { taskId: typeof taskId === "string" ? taskId.slice(0, 100) : null });
    return record;
  }

  async answer(taskId: string, owner: string, responses: Record<string, unknown>): Promise<void> {
    await this.read(taskId, owner);
    const taken = await this.store.answer(taskId, responses);
    if (taken.length > 0) await this.store.signal({ taskId, kind: "input" });
  }

  /** Marks the task cancelled at once (terminal states are final) and tells its runner to stop. */
  async cancel(taskId: string, owner: string): Promise<void> {
    const record = await this.read(taskId, owner);
    if (isTerminal(record.status)) return;
    await this.store.update(taskId, { status: "cancelled", statusMessage: CANCELLED_MESSAGE });
    await this.store.signal({ taskId, kind: "cancel" });
  }

  /** Stops the work running here, records why, and closes the store. */
  async close(): Promise<void> {
    this.closing = true;
    const ids = [...this.running.keys()];
    for (const id of ids) this.running.get(id)?.controller.abort();
    await Promise.all(
      ids.map((id) => this.store.update(id, { status: "failed", statusMessage: SHUTDOWN_REASON, error: { code: INTERNAL_ERROR, message: SHUTDOWN_REASON } }).catch(() => undefined)),
    );
    await this.store.close();
  }
}

/** The task fields a CreateTaskResult and a tasks/get answer share. */
export function taskFields(record: TaskRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { taskId: record.taskId, status: record.status };
  if (record.statusMessage !== undefined) out.statusMessage = record.statusMessage;
  out.createdAt = record.createdAt;
  out.lastUpdatedAt = record.lastUpdatedAt;
  out.ttlMs = record.ttlMs;
  out.pollIntervalMs = record.pollIntervalMs;
  return out;
}

/** DetailedTask: the status-specific payload inlined. */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const out = taskFields(record);
  if (record.status === "input_required" && record.inputRequests) out.inputRequests = record.inputRequests;
  if (record.status === "completed" && record.result) out.result = record.result;
  if (record.status === "failed") out.error = record.error ?? { code: INTERNAL_ERROR, message: record.statusMessage ?? "Task failed" };
  return out;
}
