// Validates one document with every schema pattern matched in a worker under the shared budget.
// The interpreter runs here on the main thread with a memo of regex answers: unknown answers are
// recorded and guessed, the recorded pairs go to a worker in one batch, and validation runs again
// with the answers, until a run needs nothing new. Only the final run, with every answer known,
// decides the result, so a guess never leaks into it.
//
// The one exception, proven cheap: a pattern that is a flat sequence of single-character atoms
// (translatePythonPattern's cheapDegree k) costs at most about (n+1)^k backtracking steps on n
// characters. Tests whose bound is at most PER_TEST_STEPS run here directly, until the document has
// spent PER_DOCUMENT_STEPS of such bounds (a few milliseconds of main-thread time at most); the rest,
// and every pattern without a bound (groups, alternation: where catastrophes live), go to the worker.
import type { MatcherPool } from "./matcher/pool.js";
import type { Prepared } from "./schema/prepare.js";
import type { PatternInfo, RegexOracle } from "./schema/types.js";
import { MemoRegex, validateInstance, type ValidationResult } from "./schema/validate.js";

export const PATTERN_BUDGET_MS = 500;
const PER_TEST_STEPS = 200_000;
const PER_DOCUMENT_STEPS = 2_000_000;

/** Compiled patterns for the in-thread cheap path, per prepared schema. */
const compiledFor = new WeakMap<Prepared, RegExp[]>();

class CheapHereElseWorker extends MemoRegex {
  private spent = 0;
  constructor(private readonly compiled: RegExp[]) {
    super();
  }

  override test(p: PatternInfo, s: string): boolean {
    const hit = this.known.get(p.id)?.get(s);
    if (hit !== undefined) return hit;
    if (p.cheapDegree !== null) {
      const bound = (s.length + 1) ** p.cheapDegree; // UTF-16 units >= code points: conservative
      if (bound <= PER_TEST_STEPS && this.spent + bound <= PER_DOCUMENT_STEPS) {
        this.spent += bound;
        const result = (this.compiled[p.id] ??= new RegExp(p.js, "u")).test(s);
        this.learn(p.id, s, result);
        return result;
      }
    }
    return super.test(p, s);
  }
}

export type DocumentOutcome =
  | ({ kind: "validated" } & ValidationResult)
  | { kind: "ran-out"; pattern: PatternInfo }
  | { kind: "failed"; message: string }
  | { kind: "busy"; waiting: number };

const NO_PATTERNS: RegexOracle = {
  test() {
    throw new Error("a schema without patterns asked for a pattern match");
  },
};

/** The outcome at once for a schema without patterns (the common case: no promise, no worker), else a promise. */
export function validateDocument(
  prepared: Prepared,
  doc: unknown,
  pool: MatcherPool,
  budgetMs = PATTERN_BUDGET_MS,
  signal?: AbortSignal,
): DocumentOutcome | Promise<DocumentOutcome> {
  if (prepared.patterns.length === 0) return { kind: "validated", ...validateInstance(prepared, doc, NO_PATTERNS) };
  return withPatterns(prepared, doc, pool, budgetMs, signal);
}

async function withPatterns(prepared: Prepared, doc: unknown, pool: MatcherPool, budgetMs: number, signal: AbortSignal | undefined): Promise<DocumentOutcome> {
  let compiled = compiledFor.get(prepared);
  if (!compiled) compiledFor.set(prepared, (compiled = []));
  const memo = new CheapHereElseWorker(compiled);
  let used = 0;
  for (;;) {
    const result = validateInstance(prepared, doc, memo);
    if (memo.pendingCount === 0) return { kind: "validated", ...result };
    const jobs = memo.takePending();
    if (used >= budgetMs) return { kind: "ran-out", pattern: prepared.patterns[jobs[0][0]] };
    const patterns: Record<number, string> = {};
    for (const [id] of jobs) patterns[id] = prepared.patterns[id].js;
    const reply = await pool.run({ patterns, jobs, budgetMs: budgetMs - used }, signal);
    if (reply.kind === "failed") return { kind: "failed", message: reply.message };
    if (reply.kind === "busy") return reply;
    if (reply.kind === "ran-out") return { kind: "ran-out", pattern: prepared.patterns[reply.patternId] };
    used += reply.usedMs;
    jobs.forEach(([id, strings], j) => strings.forEach((s, k) => memo.learn(id, s, reply.results[j][k])));
  }
}
