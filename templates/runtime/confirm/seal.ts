// Sealed requestState for multi round-trip requests. The state comes back from the client, so it is
// attacker input: it is AES-256-GCM encrypted and authenticated under a key from the environment, and
// bound to the server's name, the tool, a digest of the call's arguments, the principal and an expiry
// (and to the issuing process when the single-use record lives in that process only). Anything that
// does not open, or opens but belongs to another call, is refused with the reason.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const VERSION = "k1";
const AAD = Buffer.from("kervan requestState v1");

export interface StateClaims {
  /** The server's name: another server sharing KERVAN_STATE_KEY refuses the state. */
  server: string;
  /** The issuing process, when used states are recorded in it alone (see mrtr.ts). */
  instance?: string;
  tool: string;
  /** argsDigest() of the call's arguments. */
  args: string;
  principal: string;
  /** Expiry, epoch milliseconds. */
  exp: number;
  /** Random, minted per state: the server serves a state once (see used-states.ts and the task stores). */
  nonce?: string;
  /** What the server carries between rounds (answers so far, the step reached). */
  data?: unknown;
}

export type OpenResult = { ok: true; claims: StateClaims } | { ok: false; reason: string };

/** JSON with object keys sorted at every level, so equal arguments give equal digests. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function argsDigest(args: unknown): string {
  return createHash("sha256").update(canonicalJson(args)).digest("base64url");
}

/** A 32-byte key from hex (64 digits) or base64; undefined when the text is neither. */
export function parseStateKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  const decoded = Buffer.from(trimmed, "base64");
  return decoded.length === 32 ? decoded : undefined;
}

export function sealState(key: Buffer, claims: StateClaims): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(JSON.stringify(claims), "utf8"), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

export interface Expected {
  server: string;
  instance?: string;
  tool: string;
  args: string;
  principal: string;
  now?: number;
}

export function openState(key: Buffer, token: unknown, expected: Expected): OpenResult {
  if (typeof token !== "string" || !token.startsWith(`${VERSION}.`)) return { ok: false, reason: "requestState is not one this server issued" };
  const raw = Buffer.from(token.slice(VERSION.length + 1), "base64url");
  if (raw.length < 29 || raw.toString("base64url") !== token.slice(VERSION.length + 1)) {
    return { ok: false, reason: "requestState is malformed" };
  }
  let claims: StateClaims;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAAD(AAD);
    decipher.setAuthTag(raw.subarray(12, 28));
    claims = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as StateClaims;
  } catch {
    return { ok: false, reason: "requestState failed its integrity check" };
  }
  if (claims.server !== expected.server) return { ok: false, reason: "requestState belongs to another server" };
  if (claims.instance !== expected.instance) return { ok: false, reason: "requestState was issued by another server process (used states are recorded per process here)" };
  if (claims.tool !== expected.tool) return { ok: false, reason: "requestState belongs to another tool" };
  if (claims.args !== expected.args) return { ok: false, reason: "requestState belongs to a call with other arguments" };
  if (claims.principal !== expected.principal) return { ok: false, reason: "requestState belongs to another caller" };
  if (!(claims.exp > (expected.now ?? Date.now()))) return { ok: false, reason: "requestState has expired" };
  return { ok: true, claims };
}
