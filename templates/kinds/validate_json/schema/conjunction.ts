// The conjunction of a schema object's keyword checks (schema/compile.ts), also used by allOf.
import type { Check } from "./types.js";

export const TRUE: Check = () => true;

/** All checks must hold; in error mode every one still runs so all failures are reported. */
export function conjunction(checks: Check[]): Check {
  if (checks.length === 0) return TRUE;
  if (checks.length === 1) return checks[0];
  if (checks.length === 2) {
    const [a, b] = checks;
    return (v, run, path, ev) => {
      if (a(v, run, path, ev)) return b(v, run, path, ev);
      if (run.errors) b(v, run, path, ev);
      return false;
    };
  }
  return (v, run, path, ev) => {
    let ok = true;
    for (let i = 0; i < checks.length; i++) {
      if (!checks[i](v, run, path, ev)) {
        if (!run.errors) return false;
        ok = false;
      }
    }
    return ok;
  };
}
