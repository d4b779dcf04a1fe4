// The worker side of check/compile-pool.ts: takes schemas from the shared queue until it is empty
// and posts back why each does not compile (or that it does). A worker thread does not inherit the
// main thread's TypeScript loader, so it registers tsx itself, as bin/kervan.mjs does.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { compileError } = await import("./schema-limits.ts");
const { schemas, next } = workerData;
const queue = new Int32Array(next);
const results = [];
for (let i = Atomics.add(queue, 0, 1); i < schemas.length; i = Atomics.add(queue, 0, 1)) results.push([i, compileError(schemas[i])]);
parentPort.postMessage(results);
