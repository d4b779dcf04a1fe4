// The gen pipeline's shortcut past one of two ajv compiles. The check compiles every tool schema in
// strict mode only to judge it (KV510), and the emit stage compiles the same schemas again with the
// same options (emit/validators.ts) to write the validators. For a build that emits, the check
// therefore takes each schema it has not judged as compiling ("presumed"), and the emit proves it.
// Before the build returns anything, every presumption is settled: a schema no successful emit
// compiled is judged here (on two threads for many, check/compile-pool.ts), and should any of them
// not compile, the check runs again on real judgements only, so the diagnostics are exactly those a
// build without the shortcut gives. Schemas depend on nothing but themselves, so a judgement proved
// by the emit is the judgement the check would have made.
import type { Json } from "../../templates/runtime/types.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";
import { check } from "./index.js";
import { judgeSchemas } from "./compile-pool.js";
import { compileError, forgetJudgement, judged, judgement, presuming, recordJudgement } from "./schema-limits.js";

export interface DeferredCompiles {
  /** Schemas an emit compiled without error (the spec's own objects, or equal ones). */
  proved(schemas: object[]): void;
  /**
   * Judges every presumed schema no emit proved; whether all of them compile. Either way real
   * judgements stand in place of the presumptions from then on.
   */
  settle(specs: LoadedSpec[]): Promise<boolean>;
}

/** check(), presuming that every schema it would compile does: it compiles none. */
export function checkDeferred(specs: LoadedSpec[]): { diagnostics: Diagnostic[]; deferred: DeferredCompiles } {
  const { result, presumed } = presuming(() => check(specs));
  let outcome: boolean | undefined = presumed.size ? undefined : true;
  const deferred: DeferredCompiles = {
    proved(schemas) {
      if (outcome !== undefined) return;
      // The emit compiles the spec's own schema objects (normalize hands them on): matched by identity,
      // and only what is left by its JSON text.
      const objects = new Set<unknown>(schemas);
      for (const [key, schema] of presumed) if (objects.has(schema)) presumed.delete(key);
      if (presumed.size) for (const schema of schemas) presumed.delete(JSON.stringify(schema));
    },
    async settle(all) {
      if (outcome !== undefined) return outcome;
      for (const key of presumed.keys()) forgetJudgement(key);
      await judgeSchemas(all);
      for (const [key, schema] of presumed) if (!judged(key)) recordJudgement(key, compileError(schema as Json));
      outcome = [...presumed.keys()].every((key) => judgement(key) === undefined);
      return outcome;
    },
  };
  return { diagnostics: result, deferred };
}
