// The memory store: tasks live in this process only (the default; right for stdio servers).
import { randomUUID } from "node:crypto";
import { UsedStates } from "../confirm/used-states.js";
import { applyAnswers, applyPatch, nowIso, withoutResponses } from "./records.js";
import { capPassed, expired, type CapRefusal, type TaskCaps, type TaskPatch, type TaskRecord, type TaskSignal, type TaskStore } from "./types.js";

/** Expired tasks are dropped on access and by a sweep at this interval. */
const SWEEP_MS = 60_000;

export class MemoryTaskStore implements TaskStore {
  readonly kind = "memory" as const;
  readonly replicaId = randomUUID();
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly listeners: ((signal: TaskSignal) => void)[] = [];
  private readonly usedStates = new UsedStates();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, record] of this.tasks) if (expired(record, now)) this.tasks.delete(id);
    this.usedStates.sweep(now);
  }

  async create(record: TaskRecord, caps?: TaskCaps): Promise<CapRefusal | undefined> {
    const passed = capPassed(this.tasks.values(), record.owner, caps);
    if (passed) return passed;
    this.tasks.set(record.taskId, { ...record });
    return undefined;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.tasks.get(taskId);
    if (record && expired(record)) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return record && { ...record };
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const record = await this.get(taskId);
    const next = record && applyPatch(record, patch, nowIso());
    if (next) this.tasks.set(taskId, next);
    return next;
  }

  async answer(taskId: string, responses: Record<string, unknown>): Promise<string[]> {
    const record = await this.get(taskId);
    if (!record) return [];
    const { record: next, taken } = applyAnswers(record, responses, nowIso());
    if (taken.length > 0) this.tasks.set(taskId, next);
    return taken;
  }

  async takeResponses(taskId: string): Promise<Record<string, unknown>> {
    const record = this.tasks.get(taskId);
    if (!record?.inputResponses) return {};
    this.tasks.set(taskId, withoutResponses(record));
    return record.inputResponses;
  }

  async consumeState(nonce: string, expiresAt: number): Promise<boolean> {
    return this.usedStates.consume(nonce, expiresAt);
  }

  async signal(signal: TaskSignal): Promise<void> {
    for (const listener of this.listeners) listener(signal);
  }

  onSignal(listener: (signal: TaskSignal) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
