// Compiles a large server's validators on a worker thread while this thread emits the rest (tool
// modules, entry, types): ajv's compile and json-schema-to-typescript are the two long parts of
// the emit and share nothing. The module's bytes are the same either way; a small server is
// compiled here, where starting a thread would cost more than it saves.
import type { EmittedFile } from "../model/output.js";
import { emitValidatorsModule, type ValidatorsInput } from "./validators.js";
import { answerOf, spareWorker } from "../shared/ts-worker.js";

/** From this many schemas on, the validators are compiled on a worker thread. */
export const OFF_THREAD_SCHEMAS = 200;

export interface PendingFile {
  result: Promise<EmittedFile>;
  /** Stops the worker when the result is no longer wanted (the emit failed elsewhere). */
  cancel(): void;
}

const spare = spareWorker(new URL("./validators-thread.ts", import.meta.url));

/** Starts the worker ahead of need (a large spec is being built): its start-up overlaps the earlier stages. */
export function prestartValidatorsWorker(): void {
  spare.prestart();
}

/** Whether a worker started ahead of need is waiting. */
export const validatorsWorkerWaiting = (): boolean => spare.waiting;

/** Stops a worker started ahead of need and not used. */
export function stopSpareValidatorsWorker(): void {
  spare.stop();
}

/** Validators started before the emit (startValidatorsEarly), with the input they were started on. */
let early: { input: ValidatorsInput; pending: PendingFile } | undefined;

/**
 * Starts compiling a server's validators now, on the worker started ahead of need, as soon as the
 * pipeline can tell them (pipeline.ts: from the loaded spec, before the check). The emit takes the
 * result only for the same input: the same names, the same schemas; otherwise it is dropped.
 */
export function startValidatorsEarly(input: ValidatorsInput): void {
  dropEarlyValidators();
  const pending = validatorsModule(input);
  // Nobody may ever wait for it (--strict stops at a warning): a failure is no crash.
  pending.result.catch(() => {});
  early = { input, pending };
}

/**
 * The same names and schemas: the same objects (normalize hands the spec's own schema objects on),
 * else the same JSON (validators started from a guess, before the check, come from another normalize).
 */
const sameInput = (a: ValidatorsInput, b: ValidatorsInput): boolean =>
  a.dir === b.dir &&
  a.specFile === b.specFile &&
  a.schemas.length === b.schemas.length &&
  a.schemas.every((s, i) => s.name === b.schemas[i]!.name) &&
  (a.schemas.every((s, i) => s.schema === b.schemas[i]!.schema) || JSON.stringify(a.schemas) === JSON.stringify(b.schemas));

/** Stops validators started early and not taken. */
export function dropEarlyValidators(): void {
  early?.pending.cancel();
  early = undefined;
}

export function validatorsModule(input: ValidatorsInput): PendingFile {
  if (early) {
    const started = early;
    early = undefined;
    if (sameInput(started.input, input)) return started.pending;
    started.pending.cancel();
  }
  if (input.schemas.length < OFF_THREAD_SCHEMAS && !spare.waiting) {
    const file = emitValidatorsModule(input);
    return { result: Promise.resolve(file), cancel: () => {} };
  }
  const worker = spare.take();
  worker.ref();
  const result = answerOf<EmittedFile>(worker, "validators");
  try {
    worker.postMessage(input);
  } catch (e) {
    // Data the structured clone refuses: the worker would wait forever (and keep the process alive).
    void worker.terminate();
    throw e;
  }
  return { result, cancel: () => void worker.terminate() };
}
