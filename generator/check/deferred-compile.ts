// The gen pipeline's shortcut past one of two ajv compiles. The check compiles every tool schema in
// strict mode only to judge it (KV510), and the emit stage compiles the same schemas again with the
// same options (emit/validators.ts) to write the validators. For a build that emits, the check may
// therefore take each schema it has not judged as compiling ("presumed"), and the emit proves it.
// Before the build returns anything, every presumption is settled: a schema no successful emit
// compiled is judged here (on two threads for many, check/compile-pool.ts), and should any of them
// not compile, the check runs again on real judgements only, so the diagnostics are exactly those a
// build without the shortcut gives. Schemas depend on nothing but themselves, so a judgement proved
// by the emit is the judgement the check would have made.
import type { Json } from "../../templates/runtime/types.js";
import type { LoadedSpec } from "../model/spec.js";
import { judgeSchemas, pendingSchemas } from "./compile-pool.js";
import { compileError, forgetJudgement, judged, judgement, recordJudgement } from "./schema-limits.js";

export interface DeferredCompiles {
  /** Whether ajv may be handed the schema with this JSON text: it is presumed to compile, or judged to. */
  compilable(key: string): boolean;
  /** Schemas (by JSON text) that an emit compiled without error. */
  proved(schemas: Iterable<object>): void;
  /**
   * Judges every presumed schema no emit proved; whether all of them compile. Either way real
   * judgements stand in place of the presumptions from then on.
   */
  settle(specs: LoadedSpec[]): Promise<boolean>;
}

/** Presumes that every schema the check would compile does: the check then compiles none. */
export function deferCompiles(specs: LoadedSpec[]): DeferredCompiles {
  const presumed = new Map<string, Json>(pendingSchemas(specs));
  for (const key of presumed.keys()) recordJudgement(key, undefined);
  let outcome: boolean | undefined = presumed.size ? undefined : true;
  return {
    compilable: (key) => presumed.has(key) || (judged(key) && judgement(key) === undefined),
    proved(schemas) {
      if (outcome !== undefined) return;
      for (const schema of schemas) presumed.delete(JSON.stringify(schema));
    },
    async settle(all) {
      if (outcome !== undefined) return outcome;
      for (const key of presumed.keys()) forgetJudgement(key);
      await judgeSchemas(all);
      for (const [key, schema] of presumed) if (!judged(key)) recordJudgement(key, compileError(schema));
      outcome = [...presumed.keys()].every((key) => judgement(key) === undefined);
      return outcome;
    },
  };
}
