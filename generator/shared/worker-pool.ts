// The build's worker pool: every off-thread job of a build (judging schemas, compiling validators,
// bundling) goes through it, as one typed message protocol (model/jobs.ts) to one worker module
// (build-thread.ts). A worker runs one job at a time and takes the next when it is done; idle
// workers never keep the process alive; close() stops them all, so nothing outlives its build.
import type { Worker } from "node:worker_threads";
import type { FromWorker, JobName, JobStart, Jobs, ToWorker } from "../model/jobs.js";
import { tsWorker } from "./ts-worker.js";

/** From this many items (schemas, tools) on, a job is worth a worker thread; below it, the job runs on the calling thread. */
export const OFF_THREAD = 200;

/** A job under way on a worker. */
export interface JobRun<K extends JobName> {
  result: Promise<Jobs[K]["result"]>;
  /** Feeds the job (a file it waits for, schemas to judge). */
  feed(message: Jobs[K]["feed"]): void;
  /** Stops the job's worker (its result is no longer wanted). */
  cancel(): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private nextId = 0;
  private closed = false;

  /** `threshold`: OFF_THREAD, but for tests that send small jobs to a worker. */
  constructor(
    private readonly module: URL,
    private readonly threshold = OFF_THREAD,
  ) {}

  /** Whether a job of this many items runs on a worker (one threshold for every job). */
  offThread(items: number): boolean {
    return items >= this.threshold;
  }

  run<K extends JobName>(job: K, input: Jobs[K]["input"]): JobRun<K> {
    if (this.closed) throw new Error("the build is over: its worker pool is closed");
    const worker = this.idle.pop() ?? this.start();
    const id = ++this.nextId;
    worker.ref();
    const result = new Promise<Jobs[K]["result"]>((resolve, reject) => this.busy.set(worker, { resolve, reject }));
    const done = () => this.release(worker);
    result.then(done, done);
    const send = (m: ToWorker) => {
      try {
        worker.postMessage(m);
      } catch (e) {
        // Data the structured clone refuses: the job would wait forever.
        this.fail(worker, e instanceof Error ? e : new Error(String(e)));
      }
    };
    const start: JobStart<K> = { id, job, input };
    send(start);
    return { result, feed: (feed) => send({ id, feed }), cancel: () => this.fail(worker, new Error(`the ${job} job was cancelled`)) };
  }

  /** Stops every worker; jobs still under way reject. */
  close(): void {
    this.closed = true;
    for (const w of [...this.idle, ...this.busy.keys()]) this.fail(w, new Error("the build is over: its worker pool is closed"));
    this.idle.length = 0;
  }

  private start(): Worker {
    const worker = tsWorker(this.module);
    worker.unref();
    worker.on("message", (m: FromWorker) => {
      const pending = this.busy.get(worker);
      if (!pending) return;
      if ("error" in m) pending.reject(Object.assign(new Error(m.error.message), { stack: m.error.stack }));
      else pending.resolve(m.result);
    });
    worker.on("error", (e) => this.fail(worker, e));
    worker.on("exit", (code) => this.fail(worker, new Error(`a worker thread stopped (exit code ${code}) before it answered`)));
    return worker;
  }

  /** A job done: its worker waits for the next one. */
  private release(worker: Worker): void {
    if (!this.busy.delete(worker)) return;
    worker.unref();
    if (this.closed) void worker.terminate();
    else this.idle.push(worker);
  }

  /** A worker that failed (or was stopped) is dropped; its job, if any, rejects. */
  private fail(worker: Worker, error: Error): void {
    const pending = this.busy.get(worker);
    this.busy.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    void worker.terminate();
    pending?.reject(error);
  }
}
