// The one message protocol of the build's worker pool (shared/worker-pool.ts, build-thread.ts):
// each off-thread job by name, with what it is sent, what it may be fed while it runs, and what it
// answers. Plain data only: everything here crosses a structured clone.
import type { Json } from "../../templates/runtime/types.js";
import type { BundleResult, EmittedFile } from "./output.js";

/** What the validators module is made of: plain data, so it can be handed to a worker thread. */
export interface ValidatorsInput {
  dir: string;
  /** The spec the server came from (named in the header). */
  specFile: string;
  /** Export names and schemas in plan order (tools sorted by name, input before output). */
  schemas: { name: string; schema: object }[];
}

/** What the bundle takes from a server's plan: plain data, so that a worker thread can bundle it. */
export interface BundleTarget {
  dir: string;
  server: string;
  /** The spec the server came from (named in the header). */
  specFile: string;
  /** Whether the bundle needs a `require` (bundle.ts CJS_REQUIRE). */
  require: boolean;
  /**
   * A catalog: each operation loaded on first use (emit/lazy.ts) becomes a chunk file beside the
   * bundle, `chunks/<name>-<hash>.mjs`, which the bundle imports then; code they share is a chunk too.
   */
  split: boolean;
}

/** Why a schema does not compile in strict mode, by its index in the job; undefined when it does. */
export type Judgements = [index: number, error: string | undefined][];

export interface Jobs {
  /** Judges schemas, taking the next index from a counter shared with the sending thread. */
  judge: { input: { schemas: Json[]; next: SharedArrayBuffer }; feed: never; result: Judgements };
  /** Judges schemas fed to it as they are made; answers once fed `end`. */
  judgeStream: { input: Record<string, never>; feed: { schemas: Json[] } | { end: true }; result: Judgements };
  /** Compiles one server's validators module. */
  validators: { input: ValidatorsInput; feed: never; result: EmittedFile };
  /** Counts each text's tokens (catalog/tokenizer.ts). */
  tokens: { input: { texts: string[] }; feed: never; result: number[] };
  /** Bundles one server; the files still being emitted are fed as they are done (or as failed). */
  bundle: {
    input: { target: BundleTarget; files: Array<{ path: string; contents?: string }> };
    feed: { file: { path: string; contents: string } } | { failed: string };
    result: BundleResult;
  };
}

export type JobName = keyof Jobs;

/** A job to start: its name and the input that job takes. */
export interface JobStart<K extends JobName> {
  id: number;
  job: K;
  input: Jobs[K]["input"];
}

/** Sent to a worker: a job to start, or something fed to a job under way. */
export type ToWorker = JobStart<JobName> | { id: number; feed: unknown };

/** Posted back by a worker: a job's result, or the error it met. */
export type FromWorker = { id: number; result: unknown } | { id: number; error: { message: string; stack?: string } };
