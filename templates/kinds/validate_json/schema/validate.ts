// Validation entry points: a fast boolean pass first, and a second pass that collects every failure
// only when the first one fails (valid documents never pay for error objects).
import { refusals, SchemaRefusal } from "./refusal.js";
import type { Prepared } from "./prepare.js";
import type { PatternInfo, RegexOracle, Run, VError } from "./types.js";

export interface ValidationResult {
  valid: boolean;
  /** In evaluation order; empty when valid. */
  errors: VError[];
}

export function validateInstance(prepared: Prepared, instance: unknown, regex: RegexOracle): ValidationResult {
  try {
    const run: Run = { errors: null, regex };
    if (prepared.check(instance, run, null, null)) return { valid: true, errors: [] };
    const full: Run = { errors: [], regex };
    prepared.check(instance, full, null, null);
    return { valid: false, errors: full.errors! };
  } catch (e) {
    // Only a $ref cycle that never enters the document, or absurd nesting, can exhaust the stack.
    if (e instanceof RangeError) throw new SchemaRefusal(refusals.tooDeep());
    throw e;
  }
}

/**
 * Runs patterns in this thread, compiled once per pattern. Only for trusted input (build-time checks,
 * benchmarks): a pattern here cannot be stopped. The tool itself uses the worker-backed matcher.
 */
export function directRegex(): RegexOracle {
  const compiled: RegExp[] = [];
  return {
    test(p: PatternInfo, s: string): boolean {
      const re = (compiled[p.id] ??= new RegExp(p.js, "u"));
      return re.test(s);
    },
  };
}

/**
 * Answers from results already known; anything else is recorded as pending and guessed true, and the
 * caller validates again once the pending pairs have been matched elsewhere.
 */
export class MemoRegex implements RegexOracle {
  readonly known = new Map<number, Map<string, boolean>>();
  pending = new Map<number, Set<string>>();
  pendingCount = 0;

  test(p: PatternInfo, s: string): boolean {
    const hit = this.known.get(p.id)?.get(s);
    if (hit !== undefined) return hit;
    let set = this.pending.get(p.id);
    if (!set) this.pending.set(p.id, (set = new Set()));
    if (!set.has(s)) {
      set.add(s);
      this.pendingCount++;
    }
    return true;
  }

  learn(id: number, s: string, result: boolean): void {
    let m = this.known.get(id);
    if (!m) this.known.set(id, (m = new Map()));
    m.set(s, result);
  }

  takePending(): [number, string[]][] {
    const out = [...this.pending].map(([id, set]): [number, string[]] => [id, [...set]]);
    this.pending = new Map();
    this.pendingCount = 0;
    return out;
  }
}
