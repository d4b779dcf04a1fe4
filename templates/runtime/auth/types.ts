// Authorization settings of a generated server (spec `server.http.auth`, overridable by flags and environment).

/** Algorithms a JWT access token may be signed with. Asymmetric only: no `none`, no HS* (a public key is not a secret). */
export const ALLOWED_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"] as const;

export const DEFAULT_TOKEN_TYPE = "at+jwt";

export interface OAuthDef {
  /** Expected `iss` of every token. */
  issuer: string;
  /** The server's canonical URI (RFC 8707): every token's `aud` must contain it exactly. */
  resource: string;
  /** Keys: a JWKS URL (cached, refetched on an unknown key id after a cooldown) or a local JWKS file. */
  jwksUrl?: string;
  jwksFile?: string;
  algorithms: string[];
  /** Authorization servers named in the protected resource metadata (default: the issuer). */
  authorizationServers: string[];
  /** Scopes every request needs, whatever the tool. */
  scopes: string[];
  /** Allowed clock skew for exp/nbf/iat, in seconds. */
  clockToleranceSec: number;
  /** The `typ` header every token must carry (RFC 9068: at+jwt, the default); `any` checks none. */
  tokenType?: string;
  /** How old the cached JWKS may grow before it is refetched (a deploy-time setting; 60000). */
  jwksMaxAgeMs?: number;
  /** Least time between JWKS refetches caused by unknown key ids (a deploy-time setting). */
  jwksCooldownMs?: number;
}

export interface BearerTokenDef {
  /** Environment variable that holds the token; its name is the caller's principal. */
  env: string;
  /** Scopes this token holds; absent: every scope. */
  scopes?: string[];
}

export interface AuthDef {
  mode: "none" | "oauth" | "bearer";
  oauth?: OAuthDef;
  bearer?: { tokens: BearerTokenDef[] };
}

/** Who is calling: the token's subject (oauth), the token's variable (bearer) or the client address (none). */
export interface Principal {
  id: string;
  /** Scopes held; null when unrestricted (no auth, or a bearer token without scopes). */
  scopes: ReadonlySet<string> | null;
}
