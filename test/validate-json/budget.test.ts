// The shared 500 ms pattern budget: catastrophic patterns are stopped in their worker and answered
// with one refusal sentence, while other calls keep being answered.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../helpers/bundle.js";
import { createValidateJsonHandler, type ValidateJsonHandler } from "../../templates/kinds/validate_json/handler.js";

const ctx = () => ({ signal: new AbortController().signal, era: "2026-07-28" as const });
const EVIL = "a".repeat(40) + "b";
const MARGIN_MS = 250; // timers, worker restart and message passing on a busy CI machine

let handler: ValidateJsonHandler;

beforeAll(async () => {
  const script = await bundleEntry(fileURLToPath(new URL("./worker-entry.ts", import.meta.url)));
  handler = createValidateJsonHandler({ workerScript: script });
  // First call warms the pool (worker start-up is not part of any document's budget).
  await handler({ output: '"x"', schema: { pattern: "^x$" } }, ctx());
});
afterAll(async () => handler?.close());

describe("shared pattern budget", () => {
  it("refuses a catastrophic pattern within 500 ms plus a margin, naming it", async () => {
    const t0 = performance.now();
    const r = await handler({ output: JSON.stringify(EVIL), schema: { type: "string", pattern: "^(a+)+$" } }, ctx());
    const ms = performance.now() - t0;
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'Refused: pattern matching for this document ran out of its shared 500 ms budget on the pattern "^(a+)+$" at #/pattern; no partial validation is given.',
    );
    expect(r.value).toEqual({ valid: false, feedback: r.text });
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(500 + MARGIN_MS);
  });

  it("shares one budget across several catastrophic patterns in one schema", async () => {
    const schema = {
      type: "object",
      properties: {
        a: { pattern: "^(a+)+$" },
        b: { pattern: "^(a|aa)+$" },
        c: { pattern: "^(a|a?)+$" },
      },
    };
    const t0 = performance.now();
    const r = await handler({ output: JSON.stringify({ a: EVIL, b: EVIL, c: EVIL }), schema }, ctx());
    const ms = performance.now() - t0;
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Refused: pattern matching for this document ran out of its shared 500 ms budget on the pattern "\^\(a\+\)\+\$" at #\/properties\/a\/pattern; no partial validation is given\.$/);
    expect(ms).toBeLessThan(500 + MARGIN_MS);
  });

  it("answers concurrent calls while a catastrophic pattern runs", async () => {
    const t0 = performance.now();
    const slow = handler({ output: JSON.stringify(EVIL), schema: { pattern: "^(a+)+$" } }, ctx()).then((r) => ({ r, ms: performance.now() - t0 }));
    const cheapNoPattern = handler({ output: '{"n": 1}', schema: { properties: { n: { type: "integer" } } } }, ctx()).then((r) => ({ r, ms: performance.now() - t0 }));
    const cheapPattern = handler({ output: '"ABC-1234"', schema: { pattern: "^[A-Z]{3}-\\d{4}$" } }, ctx()).then((r) => ({ r, ms: performance.now() - t0 }));
    const [a, b, c] = await Promise.all([slow, cheapNoPattern, cheapPattern]);
    expect(a.r.isError).toBe(true);
    expect(b.r.value).toEqual({ valid: true, feedback: null });
    expect(c.r.value).toEqual({ valid: true, feedback: null });
    // Both are answered while the catastrophic pattern still runs (a second worker takes the
    // patterned one), not after it: ordering, not absolute times, so a busy machine cannot fail it.
    expect(b.ms).toBeLessThan(a.ms);
    expect(c.ms).toBeLessThan(a.ms);
  });

  it("keeps serving after a worker was terminated", async () => {
    const r = await handler({ output: '"aaa"', schema: { pattern: "^(a+)+$" } }, ctx());
    expect(r.value).toEqual({ valid: true, feedback: null });
    const bad = await handler({ output: '"aab"', schema: { pattern: "^(a+)+$" } }, ctx());
    expect(bad.value).toMatchObject({ valid: false });
    expect((bad.value as { feedback: string }).feedback).toContain('must match the pattern "^(a+)+$"');
  });
});
