// Main-thread side of the regex budget: a small pool of matcher workers under a cap, and a bounded
// waiting line scheduled by least time used. Each batch runs in one worker; a watchdog terminates a
// worker whose batch passes its deadline (V8 regex backtracking is interruptible by terminate()), and
// a fresh worker replaces it. The event loop stays free throughout.
//
// Fairness: a batch that has run for its slice while another waits with less time used is stopped
// (its worker terminated), charged for the time it ran, and put back in line; its next slice is twice
// as long, so a legitimately long test still completes when it is alone. A newcomer (no time used)
// therefore waits about one slice (and a worker restart), not behind every catastrophic pattern queued.
// Past `maxWaiting` waiting batches the pool answers "busy" at once instead of queueing without bound
// (to the batch that has used the most time, when one has; otherwise to the newcomer).
import type { Worker } from "node:worker_threads";
import { MATCHER_ARG, MATCHER_ROLE, now, STATE_BYTES, stateViews, type MatchReply, type MatchRequest } from "./protocol.js";

/** Past the deadline a single long test gets this much slack before the worker is terminated. */
const GRACE_MS = 8;
const POLL_MS = 20;
/** The first slice a batch runs before it may be stopped for a waiting batch with less time used. */
const FIRST_SLICE_MS = 50;

interface Slot {
  worker: Worker;
  state: ReturnType<typeof stateViews>;
  ready: Promise<void>;
}

interface Job {
  req: MatchRequest;
  /** Time charged to this batch by earlier, stopped slices. */
  used: number;
  slice: number;
  seq: number;
  signal?: AbortSignal;
  resolve: (reply: MatchReply) => void;
  /** Set while running: stops the run without answering (preemption) or with an answer. */
  stop?: (reply: MatchReply | null) => void;
  startedAt?: number;
}

export interface PoolOptions {
  /** The script the workers run: the server bundle itself in production. */
  script: () => URL | string;
  maxWorkers?: number;
  /** Batches allowed to wait for a worker; more are answered "busy" at once. */
  maxWaiting?: number;
  /** Idle workers kept warm. */
  keepIdle?: number;
}

export class MatcherPool {
  private readonly idle: Slot[] = [];
  private readonly live = new Set<Worker>();
  private readonly waiting: Job[] = [];
  private readonly running = new Set<Job>();
  private readonly max: number;
  readonly maxWaiting: number;
  private readonly keepIdle: number;
  private seq = 0;
  private preemptTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: PoolOptions) {
    this.max = options.maxWorkers ?? 4;
    this.maxWaiting = options.maxWaiting ?? 32;
    this.keepIdle = options.keepIdle ?? 1;
  }

  /** Starts one worker ahead of the first call, so a call's budget never waits on a cold start. */
  warm(): void {
    if (this.idle.length === 0 && this.live.size < this.max) this.idle.push(this.spawn());
  }

  private spawn(): Slot {
    const sab = new SharedArrayBuffer(STATE_BYTES);
    // Loaded with the first worker, not at server start (about 8 ms of a cold start).
    const { Worker } = process.getBuiltinModule("node:worker_threads");
    const worker = new Worker(this.options.script(), { argv: [MATCHER_ARG], workerData: { kervanRole: MATCHER_ROLE, state: sab } });
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

  /** Runs one batch under a deadline of `req.budgetMs` of running time, however it is sliced. */
  run(req: MatchRequest, signal?: AbortSignal): Promise<MatchReply> {
    if (signal?.aborted) return Promise.resolve({ kind: "failed", message: "the call was cancelled" });
    if (this.running.size >= this.max && this.waiting.length >= this.maxWaiting) {
      // The line is full. A batch already stopped for fairness (time used, likely a catastrophic
      // pattern) gives its place to the newcomer; among fresh batches the newcomer is the one refused.
      const last = this.waiting.at(-1);
      if (!last || last.used === 0) return Promise.resolve({ kind: "busy", waiting: this.waiting.length });
      this.waiting.pop();
      last.resolve({ kind: "busy", waiting: this.waiting.length + 1 });
    }
    return new Promise((resolve) => {
      const job: Job = { req, used: 0, slice: FIRST_SLICE_MS, seq: this.seq++, signal, resolve };
      signal?.addEventListener("abort", () => this.cancel(job), { once: true });
      this.enqueue(job);
      this.schedule();
    });
  }

  /**
   * Least time used first; among equals the newest first, so a newcomer runs at the next stop rather
   * than after every queued batch has had a slice (those queued longest are the likeliest floods).
   */
  private enqueue(job: Job): void {
    let i = this.waiting.length;
    while (i > 0 && (this.waiting[i - 1].used > job.used || (this.waiting[i - 1].used === job.used && this.waiting[i - 1].seq < job.seq))) i--;
    this.waiting.splice(i, 0, job);
  }

  private cancel(job: Job): void {
    const i = this.waiting.indexOf(job);
    if (i >= 0) {
      this.waiting.splice(i, 1);
      job.resolve({ kind: "failed", message: "the call was cancelled" });
    } else job.stop?.({ kind: "failed", message: "the call was cancelled" });
  }

  private schedule(): void {
    while (this.waiting.length > 0 && (this.idle.length > 0 || this.live.size < this.max)) {
      const job = this.waiting.shift()!;
      void this.start(job, this.idle.pop() ?? this.spawn());
    }
    this.watchFairness();
  }

  /** While batches wait and every worker is taken, stop the run that has used most, once past its slice. */
  private watchFairness(): void {
    if (this.preemptTimer || this.waiting.length === 0) return;
    this.preemptTimer = setTimeout(() => {
      this.preemptTimer = undefined;
      const head = this.waiting[0];
      if (!head) return;
      let victim: Job | undefined;
      let victimUsed = -1;
      const t = now();
      for (const job of this.running) {
        if (job.startedAt === undefined) continue;
        const ran = t - job.startedAt;
        if (ran >= job.slice && job.used + ran > victimUsed) {
          victim = job;
          victimUsed = job.used + ran;
        }
      }
      if (victim && victimUsed > head.used) victim.stop?.(null);
      this.watchFairness();
    }, FIRST_SLICE_MS / 2);
    this.preemptTimer.unref?.();
  }

  private release(slot: Slot, healthy: boolean): void {
    if (!healthy) {
      this.live.delete(slot.worker); // counted out now, so its replacement may start at once
      void slot.worker.terminate();
    } else if (this.waiting.length > 0 || this.idle.length < this.keepIdle) this.idle.push(slot);
    else {
      this.live.delete(slot.worker);
      void slot.worker.terminate();
    }
    if (this.waiting.length > 0) this.schedule();
    else if (!healthy) this.warm();
  }

  private async start(job: Job, slot: Slot): Promise<void> {
    this.running.add(job);
    try {
      await slot.ready;
    } catch (e) {
      this.running.delete(job);
      this.release(slot, false);
      return job.resolve({ kind: "failed", message: `the regex matcher did not start: ${(e as Error).message}` });
    }
    const budgetMs = Math.max(1, job.req.budgetMs - job.used);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (reply: MatchReply | null, healthy: boolean) => {
      clearTimeout(timer);
      slot.worker.off("message", onMessage);
      slot.worker.off("error", onError);
      this.running.delete(job);
      const ran = job.startedAt === undefined ? 0 : now() - job.startedAt;
      job.stop = undefined;
      job.startedAt = undefined;
      if (reply === null) {
        // Stopped for fairness: charge what it ran, double its next slice, back in line.
        job.used += ran;
        job.slice *= 2;
        if (job.used >= job.req.budgetMs) reply = { kind: "ran-out", patternId: slot.state.pattern[0], usedMs: job.used };
        else this.enqueue(job);
      } else if (reply.kind === "done" || reply.kind === "ran-out") reply = { ...reply, usedMs: job.used + reply.usedMs };
      this.release(slot, healthy);
      if (reply) job.resolve(reply);
    };
    const onMessage = (reply: MatchReply) => finish(reply, reply.kind !== "failed");
    const onError = (e: Error) => finish({ kind: "failed", message: e.message }, false);
    job.stop = (reply) => finish(reply, false);
    const watch = () => {
      const deadline = slot.state.deadline[0];
      if (deadline === 0) {
        timer = setTimeout(watch, POLL_MS); // not started yet, or just finished: its reply is on the way
        return;
      }
      const late = now() - deadline;
      if (late >= GRACE_MS) finish({ kind: "ran-out", patternId: slot.state.pattern[0], usedMs: budgetMs + late }, false);
      else timer = setTimeout(watch, Math.max(1, GRACE_MS - late));
    };
    slot.worker.on("message", onMessage);
    slot.worker.on("error", onError);
    job.startedAt = now();
    slot.worker.postMessage({ ...job.req, budgetMs });
    timer = setTimeout(watch, budgetMs);
  }

  /** Stops every worker (tests, shutdown). */
  async close(): Promise<void> {
    clearTimeout(this.preemptTimer);
    const all = this.idle.splice(0);
    await Promise.all(all.map((s) => s.worker.terminate()));
  }
}
