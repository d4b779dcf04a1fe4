// The 2025-11-25 HTTP question book-keeping: who declared elicitation, and answers taken only from the
// principal that was asked.
import { describe, expect, it } from "vitest";
import { HttpAsks } from "../../templates/runtime/http-asks.js";

const call = { signal: new AbortController().signal };

describe("HttpAsks", () => {
  it("asks only principals whose latest initialize declared elicitation, on a call with a stream", () => {
    const asks = new HttpAsks();
    const notify = () => {};
    expect(asks.elicitFor("alice", notify, call)).toBeUndefined();
    asks.remember("alice", { capabilities: { elicitation: {} } });
    expect(asks.elicitFor("alice", notify, call)).toBeTypeOf("function");
    expect(asks.elicitFor("alice", undefined, call)).toBeUndefined();
    asks.remember("alice", { capabilities: {} });
    expect(asks.elicitFor("alice", notify, call)).toBeUndefined();
  });

  it("takes an answer only from the principal that was asked", async () => {
    const asks = new HttpAsks();
    asks.remember("alice", { capabilities: { elicitation: {} } });
    const sent: Record<string, unknown>[] = [];
    const pending = asks.elicitFor("alice", (m) => sent.push(m), call)!({ message: "Sure?" });
    const id = sent[0].id as string;
    expect(sent[0]).toMatchObject({ method: "elicitation/create", params: { message: "Sure?" } });
    expect(asks.deliver("mallory", id, { result: { action: "accept" } })).toBe(false);
    expect(asks.deliver("alice", id, { result: { action: "decline" } })).toBe(true);
    await expect(pending).resolves.toEqual({ action: "decline" });
    expect(asks.deliver("alice", id, { result: {} })).toBe(false); // answered once
  });
});
