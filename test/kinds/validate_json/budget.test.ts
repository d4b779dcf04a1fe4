// The shared 500 ms pattern budget: catastrophic patterns are stopped in their worker and answered
// with one refusal sentence, while other calls keep being answered. Every assertion here is about
// answers and their order, never about durations (those are measured by `npm run bench`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../../helpers/bundle.js";
import { createValidateJsonHandler, type ValidateJsonHandler } from "../../../templates/kinds/validate_json/handler.js";

const ctx = () => ({ signal: new AbortController().signal, era: "2026-07-28" as const });
const EVIL = "a".repeat(40) + "b";
const CATASTROPHIC = { output: JSON.stringify(EVIL), schema: { type: "string", pattern: "^(a+)+$" } };
// Alternation sends this pattern to a worker (it is not a flat sequence the main thread may run).
const CHEAP_IN_WORKER = { output: '"abcd"', schema: { pattern: "^(ab|cd)+$" } };

let script: string;
let handler: ValidateJsonHandler;

beforeAll(async () => {
  script = await bundleEntry(fileURLToPath(new URL("./worker-entry.ts", import.meta.url)));
  handler = createValidateJsonHandler({ workerScript: script });
  // First call warms the pool (worker start-up is not part of any document's budget).
  await handler({ output: '"x"', schema: { pattern: "^x$" } }, ctx());
});
afterAll(async () => handler?.close());

describe("shared pattern budget", () => {
  it("refuses a catastrophic pattern, naming it", async () => {
    const r = await handler(CATASTROPHIC, ctx());
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'Refused: pattern matching for this document ran out of its shared 500 ms budget on the pattern "^(a+)+$" at #/pattern; no partial validation is given.',
    );
    expect(r.value).toEqual({ valid: false, feedback: r.text });
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
    const r = await handler({ output: JSON.stringify({ a: EVIL, b: EVIL, c: EVIL }), schema }, ctx());
    expect(r.isError).toBe(true);
    // One sentence for the first pattern that ran out: the budget is not granted again per pattern.
    expect(r.text).toMatch(/^Refused: pattern matching for this document ran out of its shared 500 ms budget on the pattern "\^\(a\+\)\+\$" at #\/properties\/a\/pattern; no partial validation is given\.$/);
  });

  it("answers concurrent calls while a catastrophic pattern runs", async () => {
    const order: string[] = [];
    const slow = handler(CATASTROPHIC, ctx()).then((r) => (order.push("slow"), r));
    const cheapNoPattern = handler({ output: '{"n": 1}', schema: { properties: { n: { type: "integer" } } } }, ctx()).then((r) => (order.push("no-pattern"), r));
    const cheapPattern = handler({ output: '"ABC-1234"', schema: { pattern: "^[A-Z]{3}-\\d{4}$" } }, ctx()).then((r) => (order.push("pattern"), r));
    const [a, b, c] = await Promise.all([slow, cheapNoPattern, cheapPattern]);
    expect(a.isError).toBe(true);
    expect(b.value).toEqual({ valid: true, feedback: null });
    expect(c.value).toEqual({ valid: true, feedback: null });
    expect(order.at(-1)).toBe("slow");
  });

  it("keeps serving after a worker was terminated", async () => {
    const r = await handler({ output: '"aaa"', schema: { pattern: "^(a+)+$" } }, ctx());
    expect(r.value).toEqual({ valid: true, feedback: null });
    const bad = await handler({ output: '"aab"', schema: { pattern: "^(a+)+$" } }, ctx());
    expect(bad.value).toMatchObject({ valid: false });
    expect((bad.value as { feedback: string }).feedback).toContain('must match the pattern "^(a+)+$"');
  });
});

describe("many catastrophic calls at once", () => {
  it("answers a cheap call that needs a worker before any of them", async () => {
    const h = createValidateJsonHandler({ workerScript: script, maxWorkers: 2 });
    try {
      await h(CHEAP_IN_WORKER, ctx()); // warm
      const order: string[] = [];
      const bad = Array.from({ length: 8 }, () => h(CATASTROPHIC, ctx()).then((r) => (order.push("bad"), r)));
      const cheap = h(CHEAP_IN_WORKER, ctx()).then((r) => (order.push("cheap"), r));
      const results = await Promise.all([...bad, cheap]);
      expect(results.at(-1)!.value).toEqual({ valid: true, feedback: null });
      for (const r of results.slice(0, -1)) expect(r.text).toMatch(/^Refused: pattern matching for this document ran out of its shared 500 ms budget/);
      // Least time used runs first: the newcomer is served ahead of the documents burning their budgets.
      expect(order[0]).toBe("cheap");
    } finally {
      await h.close();
    }
  });

  it("refuses calls past the waiting bound with a clear sentence, and serves again afterwards", async () => {
    const h = createValidateJsonHandler({ workerScript: script, maxWorkers: 1, maxWaiting: 2 });
    try {
      await h(CHEAP_IN_WORKER, ctx()); // warm
      const results = await Promise.all(Array.from({ length: 6 }, () => h(CATASTROPHIC, ctx())));
      const busy = results.filter((r) => r.text?.startsWith("Refused: the pattern matcher is busy"));
      const ranOut = results.filter((r) => r.text?.includes("ran out of its shared 500 ms budget"));
      expect(busy.length).toBe(3); // one running, two waiting, three turned away
      expect(ranOut.length).toBe(3);
      expect(busy[0].text).toBe("Refused: the pattern matcher is busy (2 documents are already waiting for it); nothing was validated, call again shortly.");
      expect(busy[0].isError).toBe(true);
      expect((await h(CHEAP_IN_WORKER, ctx())).value).toEqual({ valid: true, feedback: null });
    } finally {
      await h.close();
    }
  });
});
