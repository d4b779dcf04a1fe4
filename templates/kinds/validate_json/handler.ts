// The validate_json handler: schema first (refusals never depend on the document), then extraction,
// then validation with patterns matched in a worker under the shared budget.
import { clipText } from "../../runtime/clip.js";
import type { Json, ToolHandler, ToolOutcome } from "../../runtime/types.js";
import { extractJson } from "./extract.js";
import { MatcherPool } from "./matcher/pool.js";
import { PATTERN_BUDGET_MS, validateDocument } from "./run-document.js";
import { formatFeedback } from "./schema/feedback.js";
import { prepareSchema, type Prepared } from "./schema/prepare.js";
import { refusals, SchemaRefusal } from "./schema/refusal.js";

export interface ValidateJsonOptions {
  /**
   * The script matcher workers run. Defaults to this module's own file, which in a generated server is
   * the one bundle (its entry calls runWorkerRoleIfAny() first). Tests pass a bundled worker entry.
   */
  workerScript?: URL | string;
  /** Shared pattern budget per document, in ms (the contract says 500). */
  budgetMs?: number;
  maxWorkers?: number;
  /** Documents allowed to wait for a matcher worker; more are refused at once (default 32). */
  maxWaiting?: number;
  /**
   * Start a matcher worker right after the first call (default true) rather than on the first call with
   * patterns. Not at creation: a second isolate loading the bundle would double a cold start's CPU.
   */
  prewarm?: boolean;
}

export interface ValidateJsonHandler extends ToolHandler {
  /** Stops idle matcher workers. */
  close(): Promise<void>;
}

const SCHEMA_CACHE_SIZE = 64;

function answer(valid: boolean, feedback: string | null): ToolOutcome {
  const value: Json = { valid, feedback };
  return { value, text: JSON.stringify(value) };
}

/** A refusal is the caller's schema (or budget) problem, not the document's: a tool error. */
function refusal(sentence: string): ToolOutcome {
  return { isError: true, text: sentence, value: { valid: false, feedback: sentence } };
}

export function createValidateJsonHandler(options: ValidateJsonOptions = {}): ValidateJsonHandler {
  const budget = options.budgetMs ?? PATTERN_BUDGET_MS;
  const script = () => options.workerScript ?? new URL(import.meta.url);
  const pool = new MatcherPool({ script, maxWorkers: options.maxWorkers, maxWaiting: options.maxWaiting });
  // Never warm from TypeScript source (tests without a bundled worker): Node cannot run it as a worker.
  // Only the server's main thread calls the handler, so a worker never starts another. The first call's
  // answer goes out first; a call with patterns before then starts its worker itself (start-up is not
  // charged to its budget).
  let closed = false;
  let warm = options.prewarm !== false && !String(script()).endsWith(".ts");
  const warmSoon = () => {
    warm = false;
    setImmediate(() => closed || pool.warm());
  };
  // Prepared schemas by their JSON text: a model retrying against the same schema skips preparation.
  // Least recently used goes first; a hit only stamps its entry (re-inserting it into the Map on every
  // call cost more than the rest of a cheap call's bookkeeping).
  const cache = new Map<string, { prepared: Prepared | SchemaRefusal; used: number }>();
  let clock = 0;

  const prepare = (schema: unknown): Prepared | SchemaRefusal => {
    let key: string;
    try {
      key = JSON.stringify(schema);
    } catch {
      return new SchemaRefusal(refusals.tooDeep()); // too deep for the stack (a parsed argument has no cycles)
    }
    const hit = cache.get(key);
    if (hit) {
      hit.used = ++clock;
      return hit.prepared;
    }
    let prepared: Prepared | SchemaRefusal;
    try {
      prepared = prepareSchema(schema);
    } catch (e) {
      // Walking and compiling recurse per schema level: only absurd nesting can exhaust the stack.
      if (e instanceof RangeError) prepared = new SchemaRefusal(refusals.tooDeep());
      else if (!(e instanceof SchemaRefusal)) throw e;
      else prepared = e;
    }
    if (cache.size >= SCHEMA_CACHE_SIZE) {
      let oldest: string | undefined;
      let least = Infinity;
      for (const [k, entry] of cache) {
        if (entry.used < least) {
          least = entry.used;
          oldest = k;
        }
      }
      cache.delete(oldest!);
    }
    cache.set(key, { prepared, used: ++clock });
    return prepared;
  };

  const handler = async (args: Record<string, unknown>, ctx: { signal?: AbortSignal }): Promise<ToolOutcome> => {
    if (warm) warmSoon();
    const { output, schema } = args;
    if (typeof output !== "string") return refusal("Refused: output must be a string holding the text to validate.");
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      return refusal("Refused: schema must be a JSON Schema object.");
    }
    const prepared = prepare(schema);
    if (prepared instanceof SchemaRefusal) return refusal(prepared.sentence);
    const extracted = extractJson(output);
    if (!extracted.ok) return answer(false, extracted.feedback);
    try {
      // The signal only matters when patterns go to a worker; reading it makes one (see CallHandle).
      const outcome = validateDocument(prepared, extracted.value, pool, budget, prepared.patterns.length > 0 ? ctx.signal : undefined);
      const result = outcome instanceof Promise ? await outcome : outcome;
      if (result.kind === "ran-out") {
        const p = JSON.stringify(clipText(result.pattern.source, 200));
        return refusal(
          `Refused: pattern matching for this document ran out of its shared ${budget} ms budget on the pattern ${p} at ${result.pattern.where}; no partial validation is given.`,
        );
      }
      if (result.kind === "busy") {
        const n = result.waiting === 1 ? "1 document is" : `${result.waiting} documents are`;
        return refusal(`Refused: the pattern matcher is busy (${n} already waiting for it); nothing was validated, call again shortly.`);
      }
      if (result.kind === "failed") return refusal(`Refused: pattern matching failed (${result.message}).`);
      return result.valid ? answer(true, null) : answer(false, formatFeedback(result.errors));
    } catch (e) {
      if (e instanceof SchemaRefusal) return refusal(e.sentence);
      throw e;
    }
  };
  return Object.assign(handler, {
    close: () => {
      closed = true;
      return pool.close();
    },
  });
}
