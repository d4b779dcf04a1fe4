// OAuth 2.1 resource server: JWT access tokens verified with jose (signature with an allow-listed
// algorithm, issuer, audience equal to this server's canonical URI, expiry with a small clock skew).
import { readFileSync } from "node:fs";
import { createLocalJWKSet, createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from "jose";
import { StartupError } from "../types.js";
import { DEFAULT_TOKEN_TYPE, type OAuthDef, type Principal } from "./types.js";

/** An unknown key id refetches the JWKS at most this often; a known one is served from the cache. */
const JWKS_COOLDOWN_MS = 30_000;
const JWKS_TIMEOUT_MS = 5_000;
/** The JWKS is refetched once it is this old: a key removed from it stops verifying new tokens within this. */
export const JWKS_MAX_AGE_MS = 60_000;
/** A JWKS response larger than this is refused unread past it (a key set is a few kilobytes). */
export const JWKS_MAX_BYTES = 1024 * 1024;
const VERIFIED_CACHE_MS = 60_000;
const VERIFIED_CACHE_SIZE = 10_000;

/** `until`: the time (ms) past which the success must be checked again. */
export type Verified = { ok: true; principal: Principal; until: number } | { ok: false; reason: string };

function scopesOf(payload: JWTPayload): Set<string> {
  const out = new Set<string>();
  if (typeof payload.scope === "string") for (const s of payload.scope.split(" ")) if (s) out.add(s);
  // Some providers (Entra ID) put scopes in `scp`, as a list or a space-separated string.
  const scp = payload.scp;
  if (Array.isArray(scp)) {
    for (const s of scp) if (typeof s === "string") out.add(s);
  } else if (typeof scp === "string") {
    for (const s of scp.split(" ")) if (s) out.add(s);
  }
  return out;
}

/** fetch, with the body read up to JWKS_MAX_BYTES: past that the fetch fails and nothing more is read. */
export async function boundedFetch(url: string, options: RequestInit): Promise<Response> {
  const response = await fetch(url, options);
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > JWKS_MAX_BYTES) {
    await response.body?.cancel();
    throw new Error(`JWKS response of ${declared} bytes is over the ${JWKS_MAX_BYTES}-byte cap`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = reader ? await reader.read() : { done: true as const, value: undefined };
    if (next.done) break;
    size += next.value.byteLength;
    if (size > JWKS_MAX_BYTES) {
      await reader!.cancel();
      throw new Error(`JWKS response is over the ${JWKS_MAX_BYTES}-byte cap`);
    }
    chunks.push(next.value);
  }
  return new Response(Buffer.concat(chunks), { status: response.status, headers: response.headers });
}

function keySet(def: OAuthDef) {
  if (def.jwksUrl) {
    return createRemoteJWKSet(new URL(def.jwksUrl), {
      cooldownDuration: def.jwksCooldownMs ?? JWKS_COOLDOWN_MS,
      cacheMaxAge: def.jwksMaxAgeMs ?? JWKS_MAX_AGE_MS,
      timeoutDuration: JWKS_TIMEOUT_MS,
      [customFetch]: boundedFetch,
    });
  }
  let jwks: unknown;
  try {
    jwks = JSON.parse(readFileSync(def.jwksFile!, "utf8"));
  } catch (err) {
    throw new StartupError(`cannot read the JWKS file ${def.jwksFile}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0]);
  } catch (err) {
    throw new StartupError(`the JWKS file ${def.jwksFile} is not a JSON Web Key Set: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Why a token was refused, in words safe to send back (never the token, never key material). */
function reasonOf(err: unknown): string {
  if (err instanceof errors.JWTExpired) return "token expired";
  if (err instanceof errors.JWTClaimValidationFailed) return err.claim === "typ" ? "token type (typ header) is not acceptable" : `token claim ${err.claim} is not acceptable`;
  if (err instanceof errors.JOSEAlgNotAllowed) return "token algorithm not allowed";
  if (err instanceof errors.JWKSNoMatchingKey) return "token signed with an unknown key";
  if (err instanceof errors.JWSSignatureVerificationFailed) return "token signature invalid";
  if (err instanceof errors.JWKSTimeout || (err instanceof Error && /fetch|ECONN|JWKS/i.test(err.message))) return "token keys unavailable";
  return "token invalid";
}

/** The verdict at once for a token verified before (no promise on the common path), else a promise of it. */
export function oauthVerifier(def: OAuthDef): (token: string) => Verified | Promise<Verified> {
  const keys = keySet(def);
  // RFC 9068 §4: the typ header must be at+jwt (application/at+jwt alike); `tokenType: any` checks none.
  const typ = (def.tokenType ?? DEFAULT_TOKEN_TYPE) === "any" ? {} : { typ: def.tokenType ?? DEFAULT_TOKEN_TYPE };
  const options = { issuer: def.issuer, audience: def.resource, algorithms: def.algorithms, clockTolerance: def.clockToleranceSec, requiredClaims: ["exp", "sub"], ...typ };
  // Verified tokens are remembered by their exact text until they expire (at most a minute), so a client
  // sending the same token again costs a map lookup instead of a signature check. Only successes are kept.
  const verified = new Map<string, Verified & { ok: true }>();
  const check = async (token: string, now: number): Promise<Verified> => {
    try {
      const { payload } = await jwtVerify(token, keys, options);
      // A token issued in the future (beyond the skew) is refused: jose checks iat only against a maximum age.
      if (typeof payload.iat === "number" && payload.iat > now / 1000 + def.clockToleranceSec) return { ok: false, reason: "token claim iat is in the future" };
      const principal = { id: `oauth:${payload.iss}|${payload.sub}`, scopes: scopesOf(payload) };
      const verdict = { ok: true as const, principal, until: Math.min(now + VERIFIED_CACHE_MS, (payload.exp ?? 0) * 1000) };
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
      verified.set(token, verdict);
      return verdict;
    } catch (err) {
      return { ok: false, reason: reasonOf(err) };
    }
  };
  return (token) => {
    const now = Date.now();
    const hit = verified.get(token);
    if (hit !== undefined) {
      if (hit.until > now) return hit;
      verified.delete(token);
    }
    return check(token, now);
  };
}
