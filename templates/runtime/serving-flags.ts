// Production serving options of a generated server (auth overrides, drain, logs): parsed from flags here so
// the transport's own options stay small. Environment variables fill in what no flag gives.
import { StartupError } from "./types.js";

export type LogFormat = "text" | "json";
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface ServingOptions {
  auth?: "none" | "oauth" | "bearer";
  oauthIssuer?: string;
  oauthResource?: string;
  oauthJwksUrl?: string;
  oauthJwksFile?: string;
  /** Least time between two JWKS fetches caused by unknown key ids. */
  oauthJwksCooldownMs?: number;
  /** How old the cached JWKS may grow before it is refetched (60000). */
  oauthJwksMaxAgeMs?: number;
  /** The `typ` header tokens must carry (at+jwt), or `any`. */
  oauthTokenType?: string;
  bearerEnv?: string[];
  insecureNoAuth: boolean;
  /** How long in-flight calls may run after SIGTERM before they are cancelled. */
  drainMs: number;
  /** How long the listener stays open after SIGTERM (readiness already 503) before it stops accepting. */
  drainGraceMs: number;
  logFormat: LogFormat;
  logLevel: LogLevel;
}

export const DEFAULT_DRAIN_MS = 10_000;

/** The environment variables the runtime reads for its own serving settings (AUDIT.md lists them), with their flags. */
export const SERVING_ENV = ["KERVAN_AUTH", "KERVAN_OAUTH_ISSUER", "KERVAN_OAUTH_RESOURCE", "KERVAN_OAUTH_JWKS_URL", "KERVAN_OAUTH_JWKS_FILE", "KERVAN_OAUTH_JWKS_COOLDOWN_MS", "KERVAN_OAUTH_JWKS_MAX_AGE_MS", "KERVAN_OAUTH_TOKEN_TYPE", "KERVAN_BEARER_ENV", "KERVAN_LOG_FORMAT", "KERVAN_LOG_LEVEL"];

/** The serving flags that take a value, and the one that does not (for `kervan serve` to pass them on). */
export const SERVING_VALUE_FLAGS = ["--auth", "--oauth-issuer", "--oauth-resource", "--oauth-jwks-url", "--oauth-jwks-file", "--oauth-jwks-cooldown-ms", "--oauth-jwks-max-age-ms", "--oauth-token-type", "--bearer-env", "--drain-ms", "--drain-grace-ms", "--log-format", "--log-level"];
export const SERVING_SWITCHES = ["--insecure-no-auth"];

/** KERVAN_OAUTH_JWKS_URL -> --oauth-jwks-url */
const flagOf = (name: string) => "--" + name.slice("KERVAN_".length).toLowerCase().replace(/_/g, "-");

export function defaultServing(env: NodeJS.ProcessEnv = process.env): ServingOptions {
  const opts: ServingOptions = { insecureNoAuth: false, drainMs: DEFAULT_DRAIN_MS, drainGraceMs: 0, logFormat: "text", logLevel: "info" };
  for (const name of SERVING_ENV) {
    const value = env[name];
    if (value !== undefined && value !== "") servingFlag(flagOf(name), () => value, opts, name);
  }
  return opts;
}

function oneOf<T extends string>(what: string, text: string, values: readonly T[]): T {
  if (!(values as readonly string[]).includes(text)) throw new StartupError(`invalid ${what} "${text}" (expected ${values.join(", ")})`);
  return text as T;
}

function millis(what: string, text: string): number {
  if (!/^\d{1,9}$/.test(text)) throw new StartupError(`invalid ${what} "${text}" (expected milliseconds, 0 or more)`);
  return Number(text);
}

function url(what: string, text: string): string {
  try {
    const u = new URL(text);
    if (u.protocol === "https:" || u.protocol === "http:") return text;
  } catch {
    // reported below
  }
  throw new StartupError(`invalid ${what} "${text}" (expected an http(s) URL)`);
}

/**
 * Applies one serving flag; returns false when the name is not one. `value` reads the flag's value
 * (only called for flags that take one); `source` names an environment variable in messages.
 */
export function servingFlag(name: string, value: () => string, opts: ServingOptions, source?: string): boolean {
  const what = source ?? name;
  switch (name) {
    case "--auth":
      opts.auth = oneOf(what, value(), ["none", "oauth", "bearer"] as const);
      return true;
    case "--oauth-issuer":
      opts.oauthIssuer = value();
      return true;
    case "--oauth-resource":
      opts.oauthResource = url(what, value());
      return true;
    case "--oauth-jwks-url":
      opts.oauthJwksUrl = url(what, value());
      return true;
    case "--oauth-jwks-file":
      opts.oauthJwksFile = value();
      return true;
    case "--oauth-jwks-cooldown-ms":
      opts.oauthJwksCooldownMs = millis(what, value());
      return true;
    case "--oauth-jwks-max-age-ms":
      opts.oauthJwksMaxAgeMs = millis(what, value());
      return true;
    case "--oauth-token-type":
      opts.oauthTokenType = value();
      return true;
    case "--bearer-env":
      opts.bearerEnv = value().split(",").map((v) => v.trim()).filter(Boolean);
      return true;
    case "--insecure-no-auth":
      opts.insecureNoAuth = true;
      return true;
    case "--drain-ms":
      opts.drainMs = millis(what, value());
      return true;
    case "--drain-grace-ms":
      opts.drainGraceMs = millis(what, value());
      return true;
    case "--log-format":
      opts.logFormat = oneOf(what, value(), ["text", "json"] as const);
      return true;
    case "--log-level":
      opts.logLevel = oneOf(what, value(), ["debug", "info", "warn", "error"] as const);
      return true;
    default:
      return false;
  }
}

export const SERVING_USAGE = [
  "  --auth none|oauth|bearer  override the spec's server.http.auth mode (env KERVAN_AUTH)",
  "  --oauth-issuer ISS        expected token issuer (env KERVAN_OAUTH_ISSUER)",
  "  --oauth-resource URL      this server's canonical URI, the required token audience (env KERVAN_OAUTH_RESOURCE)",
  "  --oauth-jwks-url URL      issuer keys, cached (env KERVAN_OAUTH_JWKS_URL)",
  "  --oauth-jwks-file PATH    issuer keys from a local JWKS file (env KERVAN_OAUTH_JWKS_FILE)",
  "  --oauth-token-type TYP    the typ header tokens carry: at+jwt (default, RFC 9068) or any (env KERVAN_OAUTH_TOKEN_TYPE)",
  "  --oauth-jwks-cooldown-ms MS  least time between JWKS refetches for unknown key ids (default 30000)",
  "  --oauth-jwks-max-age-ms MS   how old the cached JWKS may grow before it is refetched (default 60000)",
  "  --bearer-env NAME,...     environment variables holding static bearer tokens (env KERVAN_BEARER_ENV)",
  "  --insecure-no-auth        allow serving a non-loopback address with no authorization",
  `  --drain-ms MS             on SIGTERM, time in-flight calls get before they are cancelled (default ${DEFAULT_DRAIN_MS})`,
  "  --drain-grace-ms MS       on SIGTERM, time the listener stays open after /readyz turns 503 (default 0)",
  "  --log-format text|json    request log format on stderr (env KERVAN_LOG_FORMAT; default text)",
  "  --log-level LEVEL         debug, info (one line per request), warn or error (env KERVAN_LOG_LEVEL)",
];
