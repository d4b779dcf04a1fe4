// The 2025-11-25 HTTP question book-keeping: who declared elicitation, and answers taken only from the
// principal that was asked.
import { describe, expect, it } from "vitest";
import { HttpAsks } from "../../templates/runtime/http-asks.js";

const call = { signal: new AbortController().signal };

describe("HttpAsks", () => {
  it("asks only principals that initialized, on a call with a stream, with what their latest initialize declared", () => {
    const asks = new HttpAsks();
    const notify = () => {};
    expect(asks.askerFor("alice", notify, call)).toBeUndefined();
    asks.remember("alice", { capabilities: { elicitation: {} } });
    expect(asks.askerFor("alice", notify, call)?.capabilities).toEqual({ elicitation: {} });
    expect(asks.askerFor("alice", undefined, call)).toBeUndefined();
    asks.remember("alice", { capabilities: { sampling: {} } });
    expect(asks.askerFor("alice", notify, call)?.capabilities).toEqual({ sampling: {} });
  });

  it("takes an answer only from the principal that was asked", async () => {
    const asks = new HttpAsks();
    asks.remember("alice", { capabilities: { elicitation: {} } });
    const sent: Record<string, unknown>[] = [];
    const pending = asks.askerFor("alice", (m) => sent.push(m), call)!.request("elicitation/create", { message: "Sure?" });
    const id = sent[0].id as string;
    expect(sent[0]).toMatchObject({ method: "elicitation/create", params: { message: "Sure?" } });
    expect(asks.deliver("mallory", id, { result: { action: "accept" } })).toBe(false);
    expect(asks.deliver("alice", id, { result: { action: "decline" } })).toBe(true);
    await expect(pending).resolves.toEqual({ action: "decline" });
    expect(asks.deliver("alice", id, { result: {} })).toBe(false); // answered once
  });
});
