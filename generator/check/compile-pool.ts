// Judges every schema of a large spec (does it compile in strict mode?) before the check runs, on
// this thread and a worker thread at once: ajv's compile is most of the check's time. Both take the
// next schema from one shared counter, so neither waits while the other has work, and the worker's
// start-up costs this thread nothing. A judgement depends on the schema alone, so the diagnostics
// are the same as when the check judges each schema itself, which it still does for small specs.
import type { Json } from "../../templates/runtime/types.js";
import type { LoadedSpec } from "../model/spec.js";
import { compileCandidate, compileError, judged, recordJudgement } from "./schema-limits.js";
import type { Worker } from "node:worker_threads";
import { spareWorker } from "../shared/ts-worker.js";

/** From this many distinct schemas to judge on, a worker thread shares the work. */
export const POOL_SCHEMAS = 200;

/** The distinct tool schemas the check will compile and has not judged yet, by JSON text. */
function pendingSchemas(specs: LoadedSpec[]): Map<string, Json> {
  const pending = new Map<string, Json>();
  for (const spec of specs) {
    const tools = (spec.doc as { tools?: unknown } | undefined)?.tools;
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) {
      if (!tool || typeof tool !== "object") continue;
      const output = (tool as { output?: { schema?: unknown } }).output;
      for (const schema of [(tool as { input?: unknown }).input, output && typeof output === "object" ? output.schema : undefined]) {
        if (schema === null || (typeof schema !== "object" && typeof schema !== "boolean")) continue;
        const key = JSON.stringify(schema);
        if (!pending.has(key) && !judged(key) && compileCandidate(schema as Json)) pending.set(key, schema as Json);
      }
    }
  }
  return pending;
}

const spare = spareWorker(new URL("./compile-thread.ts", import.meta.url));

/** Starts the worker ahead of need (a large spec is about to be loaded): its start-up overlaps the load. */
export function prestartCompileWorker(): void {
  spare.prestart();
}

/** Stops a worker started ahead of need and not used. */
export function stopSpareCompileWorker(): void {
  spare.stop();
}

/**
 * Judges the pending schemas of large specs on both threads; returns how many the worker judged.
 * `workerOnly` leaves them all to the worker (for tests: what it computes must be what this thread would).
 */
export function judgeSchemas(specs: LoadedSpec[], workerOnly = false): Promise<number> {
  return startJudging(specs).finish(workerOnly);
}

export interface Judging {
  /** Judges on this thread what the worker has not taken yet, then waits for the worker's judgements. */
  finish(workerOnly?: boolean): Promise<number>;
}

/**
 * Starts the worker on the pending schemas of large specs; this thread is free for other work
 * until it calls finish(). Few schemas and no waiting worker: nothing starts, and finish() judges nothing.
 */
export function startJudging(specs: LoadedSpec[]): Judging {
  const pending = pendingSchemas(specs);
  if (!pending.size || (pending.size < POOL_SCHEMAS && !spare.waiting)) return { finish: async () => 0 };
  const keys = [...pending.keys()];
  const schemas = [...pending.values()];
  const next = new SharedArrayBuffer(4);
  const queue = new Int32Array(next);
  const worker = spare.take();
  worker.ref();
  // A worker that fails leaves its schemas unjudged; they are judged here below.
  const theirs = judgementsOf(worker);
  worker.postMessage({ schemas, next });
  return {
    async finish(workerOnly = false) {
      if (!workerOnly) for (let i = Atomics.add(queue, 0, 1); i < schemas.length; i = Atomics.add(queue, 0, 1)) recordJudgement(keys[i]!, compileError(schemas[i]!));
      const judgedThere = await theirs;
      for (const [i, error] of judgedThere) recordJudgement(keys[i]!, error);
      void worker.terminate();
      keys.forEach((key, i) => judged(key) || recordJudgement(key, compileError(schemas[i]!)));
      return judgedThere.length;
    },
  };
}

/** The judgements a worker posts back: none when it fails (its schemas are then judged on this thread). */
function judgementsOf(worker: Worker): Promise<[number, string | undefined][]> {
  return new Promise((resolve) => {
    worker.once("message", resolve);
    worker.once("error", () => resolve([]));
    worker.once("exit", () => resolve([]));
  });
}

/** Judges schemas as they are made (streamJudging). */
export interface StreamJudging {
  /** Sends the schemas among these that need a judgement to the worker. */
  add(schemas: unknown[]): void;
  /** Waits for the worker's judgements and records them. */
  finish(): Promise<void>;
  /** Stops the worker (after finish(), or instead of it when the caller gives up). */
  stop(): void;
}

/**
 * Judges schemas on the worker started ahead of need while the caller is still making them
 * (`kervan import`, while it converts operations), so the judging starts with the first tool
 * instead of after the last one. The same judgements as judgeSchemas (the same compileError, on the
 * same JSON): recorded by finish(), they stand for the check that follows. Without a waiting worker,
 * nothing is judged here: the check judges what it needs.
 */
export function streamJudging(): StreamJudging {
  if (!spare.waiting) return { add() {}, finish: async () => {}, stop() {} };
  const worker = spare.take();
  worker.ref();
  const keys: string[] = [];
  const sent = new Set<string>();
  let batch: Json[] = [];
  const theirs = judgementsOf(worker);
  const flush = () => {
    if (batch.length) worker.postMessage({ stream: batch });
    batch = [];
  };
  return {
    add(schemas) {
      for (const schema of schemas) {
        if (schema === null || (typeof schema !== "object" && typeof schema !== "boolean")) continue;
        const key = JSON.stringify(schema);
        if (sent.has(key) || judged(key) || !compileCandidate(schema as Json)) continue;
        sent.add(key);
        keys.push(key);
        // Judged as the check reads it: plain JSON data (no undefined members, no shared objects).
        batch.push(JSON.parse(key) as Json);
      }
      if (batch.length >= STREAM_BATCH) flush();
    },
    async finish() {
      flush();
      worker.postMessage({ end: true });
      // A worker that fails leaves its schemas unjudged; the check judges them.
      for (const [i, error] of await theirs) recordJudgement(keys[i]!, error);
      void worker.terminate();
    },
    stop() {
      void worker.terminate();
    },
  };
}

/** Schemas sent to the worker at a time while streaming. */
const STREAM_BATCH = 16;
