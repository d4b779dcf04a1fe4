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
