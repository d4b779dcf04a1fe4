// The worker side of check/compile-pool.ts: for each batch it is sent, takes schemas from the shared
// queue until it is empty and posts back why each does not compile (or that it does).
import { parentPort } from "node:worker_threads";
import type { Json } from "../../templates/runtime/types.js";
import { compileError } from "./schema-limits.js";

parentPort!.on("message", ({ schemas, next }: { schemas: Json[]; next: SharedArrayBuffer }) => {
  const queue = new Int32Array(next);
  const results: [number, string | undefined][] = [];
  for (let i = Atomics.add(queue, 0, 1); i < schemas.length; i = Atomics.add(queue, 0, 1)) results.push([i, compileError(schemas[i]!)]);
  parentPort!.postMessage(results);
});
