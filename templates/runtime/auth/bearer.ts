// Static bearer tokens from environment variables, compared in constant time.
// node:crypto is loaded when bearer auth is set up, not at every server start (a static import of it
// costs a stdio server several ms of its cold start).
import { StartupError } from "../types.js";
import type { BearerTokenDef, Principal } from "./types.js";

interface Known {
  digest: Buffer;
  principal: Principal;
}

let cryptoModule: typeof import("node:crypto") | undefined;
const crypto = () => (cryptoModule ??= process.getBuiltinModule("node:crypto"));
const sha256 = (text: string): Buffer => crypto().createHash("sha256").update(text, "utf8").digest();

/** Reads every token variable now (a missing or empty one stops the start); returns the verifier. */
export function bearerVerifier(tokens: BearerTokenDef[], env: NodeJS.ProcessEnv = process.env): (token: string) => Principal | null {
  const known: Known[] = tokens.map((t) => {
    const name = t.env;
    const value = env[name];
    if (value === undefined || value === "") throw new StartupError(`bearer token variable ${name} is not set`);
    if (value.length < 16) throw new StartupError(`bearer token in ${name} is too short (16 characters at least)`);
    return { digest: sha256(value), principal: { id: `bearer:${t.env}`, scopes: t.scopes ? new Set(t.scopes) : null } };
  });
  return (token) => {
    // Equal-length digests compared with timingSafeEqual, and every token compared: no early exit on a match.
    const digest = sha256(token);
    let found: Principal | null = null;
    const { timingSafeEqual } = crypto();
    for (const k of known) if (timingSafeEqual(k.digest, digest) && found === null) found = k.principal;
    return found;
  };
}
