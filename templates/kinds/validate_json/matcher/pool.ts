// Main-thread side of the regex budget: a small pool of matcher workers. Each call's batch runs in
// one worker; a watchdog terminates a worker whose batch passes its deadline (V8 regex backtracking is
// interruptible by terminate()), and a fresh worker replaces it. The event loop stays free throughout,
// so other calls keep being served; a second concurrent batch gets its own worker.
import { Worker } from "node:worker_threads";
import { MATCHER_ROLE, now, STATE_BYTES, stateViews, type MatchReply, type MatchRequest } from "./protocol.js";

/** Past the deadline a single long test gets this much slack before the worker is terminated. */
const GRACE_MS = 8;
const POLL_MS = 20;

interface Slot {
  worker: Worker;
  state: ReturnType<typeof stateViews>;
  ready: Promise<void>;
}

export interface PoolOptions {
  /** The script the workers run: the server bundle itself in production. */
  script: () => URL | string;
  maxWorkers?: number;
  /** Idle workers kept warm. */
  keepIdle?: number;
}

export class MatcherPool {
  private readonly idle: Slot[] = [];
  private readonly waiting: ((s: Slot) => void)[] = [];
  private readonly live = new Set<Worker>();
  private readonly max: number;
  private readonly keepIdle: number;

  constructor(private readonly options: PoolOptions) {
    this.max = options.maxWorkers ?? 4;
    this.keepIdle = options.keepIdle ?? 1;
  }

  /** Starts one worker ahead of the first call, so a call's budget never waits on a cold start. */
  warm(): void {
    if (this.idle.length === 0 && this.live.size < this.max) this.idle.push(this.spawn());
  }

  private spawn(): Slot {
    const sab = new SharedArrayBuffer(STATE_BYTES);
    const worker = new Worker(this.options.script(), { workerData: { kervanRole: MATCHER_ROLE, state: sab } });
    worker.unref(); // an idle matcher never keeps the process alive
    this.live.add(worker);
    const ready = new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
    });
    ready.catch(() => undefined);
    worker.once("exit", () => {
      this.live.delete(worker);
      const i = this.idle.findIndex((s) => s.worker === worker);
      if (i >= 0) this.idle.splice(i, 1);
    });
    return { worker, state: stateViews(sab), ready };
  }

  private acquire(): Promise<Slot> {
    const slot = this.idle.pop();
    if (slot) return Promise.resolve(slot);
    if (this.live.size < this.max) return Promise.resolve(this.spawn());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) return next(slot);
    if (this.idle.length < this.keepIdle) this.idle.push(slot);
    else {
      this.live.delete(slot.worker);
      void slot.worker.terminate();
    }
  }

  private replace(slot: Slot): void {
    this.live.delete(slot.worker); // counted out now, so its replacement may start at once
    void slot.worker.terminate();
    const next = this.waiting.shift();
    if (next) next(this.spawn());
    else this.warm();
  }

  /** Runs one batch under a deadline of `req.budgetMs` from when the worker starts it. */
  async run(req: MatchRequest, signal?: AbortSignal): Promise<MatchReply> {
    const slot = await this.acquire();
    try {
      await slot.ready;
    } catch (e) {
      this.replace(slot);
      return { kind: "failed", message: `the regex matcher did not start: ${(e as Error).message}` };
    }
    return new Promise<MatchReply>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (reply: MatchReply, healthy: boolean) => {
        clearTimeout(timer);
        slot.worker.off("message", onMessage);
        slot.worker.off("error", onError);
        signal?.removeEventListener("abort", onAbort);
        if (healthy) this.release(slot);
        else this.replace(slot);
        resolve(reply);
      };
      const onMessage = (reply: MatchReply) => finish(reply, reply.kind !== "failed");
      const onError = (e: Error) => finish({ kind: "failed", message: e.message }, false);
      const onAbort = () => finish({ kind: "failed", message: "the call was cancelled" }, false);
      const watch = () => {
        const deadline = slot.state.deadline[0];
        if (deadline === 0) {
          timer = setTimeout(watch, POLL_MS); // not started yet, or just finished: its reply is on the way
          return;
        }
        const late = now() - deadline;
        if (late >= GRACE_MS) {
          const patternId = slot.state.pattern[0];
          finish({ kind: "ran-out", patternId, usedMs: req.budgetMs + late }, false);
        } else timer = setTimeout(watch, Math.max(1, GRACE_MS - late));
      };
      slot.worker.on("message", onMessage);
      slot.worker.on("error", onError);
      signal?.addEventListener("abort", onAbort, { once: true });
      slot.worker.postMessage(req);
      timer = setTimeout(watch, Math.max(1, req.budgetMs));
    });
  }

  /** Stops every worker (tests, shutdown). */
  async close(): Promise<void> {
    const all = this.idle.splice(0);
    await Promise.all(all.map((s) => s.worker.terminate()));
  }
}
