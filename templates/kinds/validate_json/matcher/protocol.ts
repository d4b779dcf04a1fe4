// Messages between the tool and its regex-matcher worker, and the shared-memory watch state.

export const MATCHER_ROLE = "regex-matcher";
/**
 * Appended to a matcher worker's process.argv, so the bundle's entry can tell it is not the server
 * without loading node:worker_threads at every server start; workerData is still checked after it.
 */
export const MATCHER_ARG = "--kervan-role=regex-matcher";

export interface MatchRequest {
  /** JS `u`-mode sources, by pattern id used in `jobs`. */
  patterns: Record<number, string>;
  /** Pattern id and the strings to test it on. */
  jobs: [number, string[]][];
  /** What remains of the document's shared budget, in ms. */
  budgetMs: number;
}

export type MatchReply =
  | { kind: "done"; results: boolean[][]; usedMs: number }
  | { kind: "ran-out"; patternId: number; usedMs: number }
  | { kind: "failed"; message: string }
  /** Not run: every worker is taken and the waiting line is full. */
  | { kind: "busy"; waiting: number };

/**
 * Shared state: [0] float64 deadline (ms on the performance.timeOrigin clock, 0 while idle);
 * [8] int32 id of the pattern being tested. The main thread reads it to decide whether to terminate.
 */
export const STATE_BYTES = 16;

export function stateViews(sab: SharedArrayBuffer): { deadline: Float64Array; pattern: Int32Array } {
  return { deadline: new Float64Array(sab, 0, 1), pattern: new Int32Array(sab, 8, 1) };
}

/** A clock both threads share: epoch-based and high resolution. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}
