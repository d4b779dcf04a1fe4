// The worker side of check/compile-pool.ts: for each batch it is sent, takes schemas from the shared
// queue until it is empty and posts back why each does not compile (or that it does); or judges
// schemas streamed to it as they are made.
import { parentPort } from "node:worker_threads";
import type { Json } from "../../templates/runtime/types.js";
import { compileError } from "./schema-limits.js";

// Streamed schemas (check/compile-pool.ts streamJudging): judged in the order they come; `end`
// posts every judgement back.
const streamed: [number, string | undefined][] = [];

type Message = { schemas: Json[]; next: SharedArrayBuffer } | { stream: Json[] } | { end: true };

parentPort!.on("message", (m: Message) => {
  if ("stream" in m) {
    for (const schema of m.stream) streamed.push([streamed.length, compileError(schema)]);
    return;
  }
  if ("end" in m) return parentPort!.postMessage(streamed);
  const { schemas, next } = m;
  const queue = new Int32Array(next);
  const results: [number, string | undefined][] = [];
  for (let i = Atomics.add(queue, 0, 1); i < schemas.length; i = Atomics.add(queue, 0, 1)) results.push([i, compileError(schemas[i]!)]);
  parentPort!.postMessage(results);
});
