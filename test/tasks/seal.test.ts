// Sealed requestState: what opens, and every way a state from elsewhere is refused.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { argsDigest, canonicalJson, openState, parseStateKey, sealState } from "../../templates/runtime/confirm/seal.js";

const key = randomBytes(32);
const args = { path: "/srv/data", force: true };
const claims = { server: "files", tool: "delete_dir", args: argsDigest(args), principal: "alice", exp: Date.now() + 60_000, data: { round: 1 } };
const expected = { server: "files", tool: "delete_dir", args: argsDigest(args), principal: "alice" };

describe("sealed requestState", () => {
  it("opens for the same tool, arguments and principal before expiry", () => {
    const token = sealState(key, claims);
    expect(openState(key, token, expected)).toEqual({ ok: true, claims });
    expect(token).not.toContain("alice"); // encrypted, not only signed
  });

  it("digests arguments independently of key order", () => {
    expect(argsDigest({ b: 1, a: [{ y: 2, x: 1 }] })).toBe(argsDigest({ a: [{ x: 1, y: 2 }], b: 1 }));
    expect(canonicalJson({ b: 1, a: null })).toBe('{"a":null,"b":1}');
    expect(argsDigest({ a: 1 })).not.toBe(argsDigest({ a: "1" }));
  });

  it("refuses a tampered state", () => {
    const token = sealState(key, claims);
    const flipped = token.slice(0, -2) + (token.at(-2) === "A" ? "B" : "A") + token.at(-1);
    for (const bad of [token + "-TAMPERED", flipped, "k1.AAAA", "nonsense", 42, undefined]) {
      const opened = openState(key, bad, expected);
      expect(opened.ok).toBe(false);
    }
    expect(openState(key, flipped, expected)).toEqual({ ok: false, reason: "requestState failed its integrity check" });
  });

  it("refuses a state sealed under another key", () => {
    expect(openState(randomBytes(32), sealState(key, claims), expected)).toEqual({ ok: false, reason: "requestState failed its integrity check" });
  });

  it("refuses a state replayed to another tool", () => {
    expect(openState(key, sealState(key, claims), { ...expected, tool: "publish" })).toEqual({ ok: false, reason: "requestState belongs to another tool" });
  });

  it("refuses a state replayed to another server sharing the key, or to another process when bound to one", () => {
    expect(openState(key, sealState(key, claims), { ...expected, server: "files-copy" })).toEqual({ ok: false, reason: "requestState belongs to another server" });
    const bound = sealState(key, { ...claims, instance: "process-1" });
    expect(openState(key, bound, { ...expected, instance: "process-2" })).toMatchObject({ ok: false, reason: expect.stringContaining("another server process") });
    expect(openState(key, bound, expected)).toMatchObject({ ok: false });
    expect(openState(key, bound, { ...expected, instance: "process-1" })).toMatchObject({ ok: true });
  });

  it("refuses a state replayed with other arguments", () => {
    const other = argsDigest({ ...args, path: "/" });
    expect(openState(key, sealState(key, claims), { ...expected, args: other })).toEqual({ ok: false, reason: "requestState belongs to a call with other arguments" });
  });

  it("refuses a state from another principal", () => {
    expect(openState(key, sealState(key, claims), { ...expected, principal: "mallory" })).toEqual({ ok: false, reason: "requestState belongs to another caller" });
  });

  it("refuses an expired state", () => {
    const token = sealState(key, { ...claims, exp: 1000 });
    expect(openState(key, token, expected)).toEqual({ ok: false, reason: "requestState has expired" });
  });

  it("reads keys as 64 hex digits or base64 of 32 bytes", () => {
    const raw = randomBytes(32);
    expect(parseStateKey(raw.toString("hex"))).toEqual(raw);
    expect(parseStateKey(raw.toString("base64"))).toEqual(raw);
    expect(parseStateKey("short")).toBeUndefined();
  });
});
