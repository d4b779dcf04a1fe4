// Task records and the store contract shared by the memory, file and Redis stores (tasks extension,
// io.modelcontextprotocol/tasks). A store keeps what every replica must see; the running work itself
// (child processes, sockets) stays on the replica that runs it and is reached through signals.
import { INTERNAL_ERROR, RpcError } from "../jsonrpc.js";

/** A store operation that failed or did not answer in time: a JSON-RPC error naming the store (HTTP 503). */
export class StoreUnavailableError extends RpcError {
  constructor(message: string) {
    super(INTERNAL_ERROR, message, undefined, 503);
  }
}

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** A JSON-RPC error object, as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

export interface TaskRecord {
  taskId: string;
  /** Who may read, answer or cancel it: the principal that started it. */
  owner: string;
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** Outstanding server-to-client requests, keyed by ids unique over the task's life. */
  inputRequests?: Record<string, unknown>;
  /** Answers received through tasks/update and not yet taken by the running work. */
  inputResponses?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: TaskError;
  /** The replica running the work. */
  runner: string;
}

/** What may change after creation. An `inputRequests` value replaces the outstanding set. */
export interface TaskPatch {
  status?: TaskStatus;
  statusMessage?: string;
  inputRequests?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: TaskError;
}

/** Tells the replica running a task that it was cancelled or received input. */
export interface TaskSignal {
  taskId: string;
  kind: "cancel" | "input";
}

/** How many tasks a store keeps at once (unexpired, finished ones included): per principal and in all. */
export interface TaskCaps {
  perPrincipal: number;
  total: number;
}

/** Which cap a create would pass. */
export type CapRefusal = "principal" | "total";

export interface TaskStore {
  readonly kind: "memory" | "file" | "redis";
  /** This process's identity among replicas sharing the store. */
  readonly replicaId: string;
  /**
   * Durable once resolved: a tasks/get for it then succeeds on any replica. With caps, the record is
   * kept only when the owner's and the store's unexpired tasks are under them (checked atomically);
   * otherwise nothing is written and the cap passed is returned.
   */
  create(record: TaskRecord, caps?: TaskCaps): Promise<CapRefusal | undefined>;
  /** undefined when unknown or expired. Tasks whose runner is gone are reported failed. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Applies a patch unless the task is unknown or already terminal (terminal states are final). */
  update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined>;
  /**
   * Moves answers for outstanding input requests into inputResponses (unknown or already answered keys
   * are ignored); the task is back to working once nothing is outstanding. Returns the keys taken.
   */
  answer(taskId: string, responses: Record<string, unknown>): Promise<string[]>;
  /** Removes and returns the answers received so far (the running work consumes them). */
  takeResponses(taskId: string): Promise<Record<string, unknown>>;
  /**
   * Records a sealed requestState's nonce as used, atomically for every replica sharing the store: true
   * the first time, false for a replay. Kept until `expiresAt` (epoch ms), when the seal expires anyway.
   */
  consumeState(nonce: string, expiresAt: number): Promise<boolean>;
  /** Delivers a signal to whichever replica runs the task (this one included). */
  signal(signal: TaskSignal): Promise<void>;
  onSignal(listener: (signal: TaskSignal) => void): void;
  close(): Promise<void>;
}

/** The cap a new task of `owner` would pass among these records, if any. */
export function capPassed(records: Iterable<TaskRecord>, owner: string, caps: TaskCaps | undefined, now = Date.now()): CapRefusal | undefined {
  if (!caps) return undefined;
  let all = 0;
  let mine = 0;
  for (const record of records) {
    if (expired(record, now)) continue;
    all++;
    if (record.owner === owner) mine++;
  }
  if (mine >= caps.perPrincipal) return "principal";
  if (all >= caps.total) return "total";
  return undefined;
}

export function expired(record: TaskRecord, now = Date.now()): boolean {
  return Date.parse(record.createdAt) + record.ttlMs <= now;
}
