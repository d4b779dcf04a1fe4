// questions: one-at-a-time: each missing asked value in a round of its own, in the order of ask, the
// confirmation last; every round of a plain 2026-07-28 call carries a new sealed requestState.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { questionRound } from "../../templates/runtime/confirm/mrtr.js";
import type { ToolDef } from "../../templates/runtime/types.js";

const key = randomBytes(32);
const used = new Set<string>();
const consume = async (nonce: string) => (used.has(nonce) ? false : (used.add(nonce), true));
const tool = {
  name: "greet",
  questions: "one-at-a-time",
  confirm: { message: "Greet {name} in {color}?" },
  ask: [
    { field: "name", message: "Step 1: What is your name?", schema: { type: "string" }, inputKey: "step1" },
    { field: "color", message: "Step 2: What is your favorite color?", schema: { type: "string" }, inputKey: "step2" },
  ],
} as unknown as ToolDef;
type Asking = { inputRequests: Record<string, { params: { message: string; requestedSchema: { properties: object } } }>; requestState: string };
const round = (params: Record<string, unknown> | undefined) => questionRound({ scope: { server: "jobs" }, tool, args: {}, params, principal: "p", key, consume });
const asking = (r: Awaited<ReturnType<typeof round>>): Asking => {
  expect(r.run).toBe(false);
  return (r as { result: unknown }).result as Asking;
};

describe("questions: one-at-a-time", () => {
  it("asks name, then color, then the confirmation, each under a new state, and runs with both values", async () => {
    const r1 = asking(await round(undefined));
    expect(Object.keys(r1.inputRequests)).toEqual(["step1"]);
    expect(r1.inputRequests.step1.params.message).toBe("Step 1: What is your name?");
    expect(Object.keys(r1.inputRequests.step1.params.requestedSchema.properties)).toEqual(["name"]);
    const r2 = asking(await round({ inputResponses: { step1: { action: "accept", content: { name: "Ada" } } }, requestState: r1.requestState }));
    expect(Object.keys(r2.inputRequests)).toEqual(["step2"]);
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = asking(await round({ inputResponses: { step2: { action: "accept", content: { color: "teal" } } }, requestState: r2.requestState }));
    expect(Object.keys(r3.inputRequests)).toEqual(["confirm"]);
    expect(r3.inputRequests.confirm.params.message).toBe('Greet "Ada" in "teal"?');
    const done = await round({ inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: r3.requestState });
    expect(done).toEqual({ run: true, args: { name: "Ada", color: "teal" } });
  });

  it("skips a value the caller gave and asks the next one", async () => {
    const r = await questionRound({ scope: { server: "jobs" }, tool, args: { name: "Bo" }, params: undefined, principal: "p", key, consume });
    expect(Object.keys(asking(r).inputRequests)).toEqual(["step2"]);
  });
});
