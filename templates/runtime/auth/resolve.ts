// The effective authorization of one server start: the spec's server.http.auth, overridden by flags and
// environment. Problems are StartupErrors (one line, exit 2), found before the listener opens.
import { StartupError } from "../types.js";
import type { ServingOptions } from "../serving-flags.js";
import { ALLOWED_ALGORITHMS, type AuthDef, type OAuthDef } from "./types.js";

const DEFAULT_CLOCK_TOLERANCE_SEC = 30;

function resolveOAuth(spec: OAuthDef | undefined, opts: ServingOptions): OAuthDef {
  const issuer = opts.oauthIssuer ?? spec?.issuer;
  const resource = opts.oauthResource ?? spec?.resource;
  // A deploy-time key source replaces the spec's, whichever kind it is.
  const deployKeys = opts.oauthJwksUrl !== undefined || opts.oauthJwksFile !== undefined;
  const jwksUrl = deployKeys ? opts.oauthJwksUrl : spec?.jwksUrl;
  const jwksFile = deployKeys ? opts.oauthJwksFile : spec?.jwksFile;
  if (!issuer) throw new StartupError("oauth needs an issuer (spec server.http.auth.oauth.issuer, --oauth-issuer or KERVAN_OAUTH_ISSUER)");
  if (!resource) throw new StartupError("oauth needs the server's canonical URI (spec server.http.auth.oauth.resource, --oauth-resource or KERVAN_OAUTH_RESOURCE)");
  if (!jwksUrl && !jwksFile) throw new StartupError("oauth needs keys: a JWKS URL (--oauth-jwks-url) or a local JWKS file (--oauth-jwks-file)");
  if (jwksUrl && jwksFile) throw new StartupError("oauth takes one key source: a JWKS URL or a JWKS file, not both");
  if (jwksUrl) checkJwksUrl(jwksUrl);
  const tokenType = opts.oauthTokenType ?? spec?.tokenType;
  const algorithms = spec?.algorithms ?? ["RS256", "ES256"];
  const bad = algorithms.filter((a) => !(ALLOWED_ALGORITHMS as readonly string[]).includes(a));
  if (bad.length) throw new StartupError(`oauth algorithms not allowed: ${bad.join(", ")} (asymmetric ones only: ${ALLOWED_ALGORITHMS.join(", ")})`);
  return {
    issuer,
    resource,
    ...(jwksUrl ? { jwksUrl } : { jwksFile }),
    algorithms,
    authorizationServers: spec?.authorizationServers?.length ? spec.authorizationServers : [issuer],
    scopes: spec?.scopes ?? [],
    clockToleranceSec: spec?.clockToleranceSec ?? DEFAULT_CLOCK_TOLERANCE_SEC,
    ...(tokenType !== undefined ? { tokenType } : {}),
    ...(opts.oauthJwksCooldownMs !== undefined ? { jwksCooldownMs: opts.oauthJwksCooldownMs } : {}),
    ...(opts.oauthJwksMaxAgeMs !== undefined ? { jwksMaxAgeMs: opts.oauthJwksMaxAgeMs } : {}),
  };
}

/** Keys come over https; plain http only from this machine (a local identity provider, a test). */
function checkJwksUrl(text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StartupError(`the JWKS URL ${text} is not a URL`);
  }
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return;
  throw new StartupError(`the JWKS URL must be https (plain http only on loopback), not ${url.protocol}//${url.host}: keys fetched in the clear could be replaced on the way`);
}

export function resolveAuth(spec: AuthDef | undefined, opts: ServingOptions): AuthDef {
  const mode = opts.auth ?? spec?.mode ?? "none";
  if (mode === "none") return { mode };
  if (mode === "oauth") return { mode, oauth: resolveOAuth(spec?.oauth, opts) };
  const tokens = opts.bearerEnv ? opts.bearerEnv.map((env) => ({ env })) : (spec?.bearer?.tokens ?? []);
  if (tokens.length === 0) throw new StartupError("bearer auth needs at least one token variable (spec server.http.auth.bearer.tokens or --bearer-env NAME)");
  return { mode, bearer: { tokens } };
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(?:\.\d{1,3}){3})$/i;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/** Serving a non-loopback address with nobody checked needs --insecure-no-auth; returns a warning to print, or null. */
export function checkExposure(host: string, auth: AuthDef, insecureNoAuth: boolean): string | null {
  if (auth.mode !== "none" || isLoopback(host)) return null;
  if (!insecureNoAuth) {
    throw new StartupError(
      `refusing to serve ${host} without authorization: anyone who can reach it could call every tool. ` +
        "Set server.http.auth (or --auth oauth|bearer), bind 127.0.0.1, or pass --insecure-no-auth",
    );
  }
  return `WARNING: serving ${host} with no authorization (--insecure-no-auth): anyone who can reach this address can call every tool`;
}
