// Starts a worker thread on a module of the generator, named by its TypeScript source
// (`new URL("./x-thread.ts", import.meta.url)`). From the sources, a worker does not inherit the
// main thread's loader, so its entry (a data: URL, so that the package ships no extra file) first
// registers tsx, as bin/kervan.mjs does, then imports the module. From the prebuilt dist/ (bin/prebuild.mjs),
// this module and the one naming the worker are chunks in dist/, and the worker is dist/x-thread.mjs
// next to them: plain JavaScript, started as it is.
import { Worker, type WorkerOptions } from "node:worker_threads";

/** Whether this module runs from the prebuilt dist/ rather than from its TypeScript source. */
export const PREBUILT = new URL(import.meta.url).pathname.endsWith(".mjs");

/** The module a worker is started on: the prebuilt one in dist/, or the TypeScript source. */
export function workerModule(module: URL): URL {
  return PREBUILT ? new URL(module.href.replace(/\.ts$/, ".mjs")) : module;
}

export function tsWorker(module: URL, options?: WorkerOptions): Worker {
  if (PREBUILT) return new Worker(workerModule(module), options);
  const entry = `import { register } from ${JSON.stringify(import.meta.resolve("tsx/esm/api"))};\nregister();\nawait import(${JSON.stringify(module.href)});\n`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(entry)}`), options);
}

/**
 * A worker on `module` that can be started ahead of need (its start-up overlaps earlier work), then
 * taken by the one job that uses it, or stopped when none does.
 */
export interface SpareWorker {
  /** Starts the worker now, unless it is already waiting; it never keeps the process alive. */
  prestart(): void;
  /** Stops a worker started ahead of need and not taken. */
  stop(): void;
  /** Whether a started worker is waiting. */
  readonly waiting: boolean;
  /** The waiting worker, or a new one; either way the caller owns it from now on. */
  take(): Worker;
}

export function spareWorker(module: URL): SpareWorker {
  let spare: Worker | undefined;
  return {
    prestart() {
      spare ??= tsWorker(module);
      spare.unref();
    },
    stop() {
      void spare?.terminate();
      spare = undefined;
    },
    get waiting() {
      return spare !== undefined;
    },
    take() {
      const worker = spare ?? tsWorker(module);
      spare = undefined;
      return worker;
    },
  };
}

/** What a worker taken for one job posts back: its result, or the error it met. */
export interface WorkerAnswer<T> {
  result?: T;
  error?: { message: string; stack?: string };
}

/**
 * The one answer of a worker taken for a job: its result; or a rejection with the error it posted,
 * an error it threw, or its exit before answering (`what` names it). The worker is stopped once it
 * has answered.
 */
export function answerOf<T>(worker: Worker, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    worker.once("message", (m: WorkerAnswer<T>) => {
      if (m.error) reject(Object.assign(new Error(m.error.message), { stack: m.error.stack }));
      else resolve(m.result as T);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the ${what} worker stopped (exit code ${code}) before it answered`)));
  }).finally(() => void worker.terminate());
}
