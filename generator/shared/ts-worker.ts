// Starts a worker thread on a TypeScript module of the generator. A worker does not inherit the
// main thread's loader, so its entry (a data: URL, so that the package ships only .ts files) first
// registers tsx, as bin/kervan.mjs does, then imports the module.
import { Worker, type WorkerOptions } from "node:worker_threads";

export function tsWorker(module: URL, options?: WorkerOptions): Worker {
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
