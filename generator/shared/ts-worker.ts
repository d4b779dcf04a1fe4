// Starts a worker thread on a TypeScript module of the generator. A worker does not inherit the
// main thread's loader, so its entry (a data: URL, so that the package ships only .ts files) first
// registers tsx, as bin/kervan.mjs does, then imports the module.
import { Worker, type WorkerOptions } from "node:worker_threads";

export function tsWorker(module: URL, options?: WorkerOptions): Worker {
  const entry = `import { register } from ${JSON.stringify(import.meta.resolve("tsx/esm/api"))};\nregister();\nawait import(${JSON.stringify(module.href)});\n`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(entry)}`), options);
}
