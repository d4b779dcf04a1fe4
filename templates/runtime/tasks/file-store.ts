// The file store: one directory owned by one server process (a lock file says which). Each task is an
// append-only file of JSON lines, one full snapshot per change, each written with fsync and mode 0600,
// so a crash loses at most the line being written (an unreadable last line is skipped on reading).
// On start, tasks left unfinished by a previous process are marked failed with the reason: the work
// they stood for died with that process, and a client polling them must learn so, not wait forever.
import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import { join } from "node:path";
import { NONCE } from "../confirm/used-states.js";
import { tasksEnv, type TasksEnv } from "./env.js";
import { applyAnswers, applyPatch, nowIso, withoutResponses } from "./records.js";
import { capPassed, expired, type CapRefusal, type TaskCaps, isTerminal, type TaskPatch, type TaskRecord, type TaskSignal, type TaskStore } from "./types.js";

const LOCK = "store.lock";
const SUFFIX = ".task";
const SWEEP_MS = 60_000;
/** Used requestState nonces: one file each (created O_EXCL, so a replay finds it), holding its expiry. */
const USED_STATES = "used-states";
export const RESTART_REASON = "The server restarted while this task was unfinished; its work was lost.";

export class TaskStoreLockedError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the directory's lock file (O_EXCL); a lock left by a dead process is taken over. */
function lock(dir: string): string {
  const path = join(dir, LOCK);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return path;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) {
        throw new TaskStoreLockedError(`task directory ${dir} is in use by process ${pid}`);
      }
      unlinkSync(path);
    }
  }
  throw new TaskStoreLockedError(`could not lock task directory ${dir}`);
}

/** The last readable snapshot of a task file. */
function lastSnapshot(text: string): TaskRecord | undefined {
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i].trim() === "") continue;
    try {
      return JSON.parse(lines[i]) as TaskRecord;
    } catch {
      // a torn write: the line before it is the last complete state
    }
  }
  return undefined;
}

export class FileTaskStore implements TaskStore {
  readonly kind = "file" as const;
  readonly replicaId = randomUUID();
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly writes = new Map<string, Promise<void>>();
  private readonly listeners: ((signal: TaskSignal) => void)[] = [];
  private readonly lockPath: string;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.lockPath = lock(dir);
    mkdirSync(join(dir, USED_STATES), { mode: 0o700, recursive: true });
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Reads every task; unfinished ones are marked failed, expired ones pruned. Returns how many failed. */
  async recover(): Promise<number> {
    let failed = 0;
    const at = nowIso();
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith(SUFFIX)) continue;
      const record = lastSnapshot(readFileSync(join(this.dir, name), "utf8"));
      if (!record) continue;
      if (expired(record)) {
        await unlink(join(this.dir, name)).catch(() => undefined);
        continue;
      }
      this.tasks.set(record.taskId, record);
      if (!isTerminal(record.status)) {
        failed++;
        await this.update(record.taskId, { status: "failed", statusMessage: RESTART_REASON, error: { code: -32603, message: RESTART_REASON } });
      }
    }
    return failed;
  }

  private path(taskId: string): string {
    return join(this.dir, taskId + SUFFIX);
  }

  /** Appends one snapshot durably; writes to one task are serialized. */
  private persist(record: TaskRecord, syncDir = false): Promise<void> {
    const taskId = record.taskId;
    const line = JSON.stringify(record) + "\n";
    const run = async () => {
      const handle = await open(this.path(taskId), "a", 0o600);
      try {
        await handle.write(line);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (syncDir) {
        const dir = await open(this.dir, "r");
        try {
          await dir.sync(); // the new file's directory entry is durable too
        } finally {
          await dir.close();
        }
      }
    };
    const next = (this.writes.get(taskId) ?? Promise.resolve()).then(run);
    const tracked = next.finally(() => {
      if (this.writes.get(taskId) === tracked) this.writes.delete(taskId);
    });
    this.writes.set(taskId, tracked.catch(() => undefined));
    return next;
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const [id, record] of this.tasks) {
      if (!expired(record, now)) continue;
      this.tasks.delete(id);
      await unlink(this.path(id)).catch(() => undefined);
    }
    const used = join(this.dir, USED_STATES);
    for (const name of readdirSync(used)) {
      const exp = Number(readFileSync(join(used, name), "utf8"));
      if (!(exp > now)) await unlink(join(used, name)).catch(() => undefined);
    }
  }

  async create(record: TaskRecord, caps?: TaskCaps): Promise<CapRefusal | undefined> {
    const passed = capPassed(this.tasks.values(), record.owner, caps);
    if (passed) return passed;
    this.tasks.set(record.taskId, { ...record });
    await this.persist(record, true);
    return undefined;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.tasks.get(taskId);
    if (record && expired(record)) {
      this.tasks.delete(taskId);
      await unlink(this.path(taskId)).catch(() => undefined);
      return undefined;
    }
    return record && { ...record };
  }

  async update(taskId: string, patch: TaskPatch): Promise<TaskRecord | undefined> {
    const record = this.tasks.get(taskId);
    const next = record && applyPatch(record, patch, nowIso());
    if (!next) return undefined;
    this.tasks.set(taskId, next);
    await this.persist(next);
    return next;
  }

  async answer(taskId: string, responses: Record<string, unknown>): Promise<string[]> {
    const record = this.tasks.get(taskId);
    if (!record) return [];
    const { record: next, taken } = applyAnswers(record, responses, nowIso());
    if (taken.length === 0) return taken;
    this.tasks.set(taskId, next);
    await this.persist(next);
    return taken;
  }

  async takeResponses(taskId: string): Promise<Record<string, unknown>> {
    const record = this.tasks.get(taskId);
    if (!record?.inputResponses) return {};
    const next = withoutResponses(record);
    this.tasks.set(taskId, next);
    await this.persist(next);
    return record.inputResponses;
  }

  async consumeState(nonce: string, expiresAt: number): Promise<boolean> {
    if (!NONCE.test(nonce)) return false;
    let handle;
    try {
      handle = await open(join(this.dir, USED_STATES, nonce), "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw err;
    }
    try {
      await handle.write(String(expiresAt));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  }

  async signal(signal: TaskSignal): Promise<void> {
    for (const listener of this.listeners) listener(signal);
  }

  onSignal(listener: (signal: TaskSignal) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all(this.writes.values());
    await unlink(this.lockPath).catch(() => undefined);
  }
}

/** The file store at KERVAN_TASKS_DIR, with tasks a previous process left unfinished marked failed. */
export async function openFileStore(env: TasksEnv = tasksEnv()): Promise<FileTaskStore> {
  const dir = env.KERVAN_TASKS_DIR;
  if (!dir) throw new TaskStoreLockedError("KERVAN_TASKS_DIR must name the directory that keeps this server's tasks (its task store is `file`)");
  const store = new FileTaskStore(dir);
  await store.recover();
  return store;
}
