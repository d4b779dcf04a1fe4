// Security schemes -> secrets read from environment variables, placed where the scheme says:
// apiKey in a header, the query or a cookie; HTTP bearer and basic; OAuth2 and OpenID Connect
// as a bearer token. A secret is never a model input.
import type { Doc } from "./read.js";
import { snakeCase } from "./names.js";

export interface SecretUse {
  /** Template name: {{secrets.<name>}}. */
  name: string;
  env: string;
  scheme: string;
  place: "header" | "query" | "cookie";
  /** Header, query parameter or cookie name. */
  key: string;
  /** The template text, e.g. "Bearer {{secrets.x}}". */
  value: string;
  /** What the variable holds, for the spec's header comment. */
  holds: string;
}

export interface Auth {
  uses: SecretUse[];
  /** An alternative without credentials exists (`{}` among the requirements): secrets are optional. */
  optional: boolean;
  /** Schemes named by the operation that cannot be expressed, with why. */
  unsupported: string[];
}

const PLACES = ["header", "query", "cookie"] as const;
const isPlace = (s: string): s is SecretUse["place"] => PLACES.some((p) => p === s);

/** The server name as an environment variable prefix: upper case, non-alphanumerics as `_`, never a leading digit. */
export const envPrefix = (server: string) => server.toUpperCase().replace(/[^A-Z0-9]/g, "_").replace(/^(\d)/, "_$1");

function use(schemeName: string, scheme: Doc, server: string): SecretUse | string {
  const name = snakeCase(schemeName) || "credential";
  const env = `${envPrefix(server)}_${name.toUpperCase()}`;
  const t = `{{secrets.${name}}}`;
  const type = String(scheme.type ?? "").toLowerCase();
  if (type === "apikey") {
    const where = String(scheme.in ?? "");
    if (!isPlace(where) || typeof scheme.name !== "string" || !scheme.name) return `apiKey scheme '${schemeName}' has no usable 'in'/'name'`;
    return { name, env, scheme: schemeName, place: where, key: scheme.name, value: t, holds: `the API key (sent in ${where} ${scheme.name})` };
  }
  if (type === "http") {
    const s = String(scheme.scheme ?? "").toLowerCase();
    if (s === "bearer") return { name, env, scheme: schemeName, place: "header", key: "Authorization", value: `Bearer ${t}`, holds: "a bearer token" };
    if (s === "basic") return { name, env, scheme: schemeName, place: "header", key: "Authorization", value: `Basic ${t}`, holds: "base64 of user:password (HTTP basic)" };
    return `HTTP scheme '${s}' of '${schemeName}' is not supported (bearer and basic are)`;
  }
  if (type === "oauth2" || type === "openidconnect") {
    return { name, env, scheme: schemeName, place: "header", key: "Authorization", value: `Bearer ${t}`, holds: `an access token (${type === "oauth2" ? "OAuth2, e.g. from the client-credentials flow" : "OpenID Connect"})` };
  }
  return `security scheme '${schemeName}' of type '${scheme.type}' is not supported`;
}

/** The first requirement alternative whose schemes can all be expressed. */
export function authFor(doc: Doc, op: Doc, server: string): Auth {
  const reqs: unknown = op.security ?? doc.security ?? [];
  const schemes: Doc = doc.components?.securitySchemes ?? {};
  const list: unknown[] = Array.isArray(reqs) ? reqs : [];
  const optional = list.length === 0 || list.some((r) => r && typeof r === "object" && Object.keys(r).length === 0);
  const unsupported: string[] = [];
  for (const req of list) {
    if (!req || typeof req !== "object" || !Object.keys(req).length) continue;
    const uses: SecretUse[] = [];
    let ok = true;
    for (const schemeName of Object.keys(req).sort()) {
      const scheme = schemes[schemeName];
      const u = scheme && typeof scheme === "object" ? use(schemeName, scheme, server) : `security scheme '${schemeName}' is not defined`;
      if (typeof u === "string") {
        unsupported.push(u);
        ok = false;
        break;
      }
      // Two schemes of one alternative writing the same header: two OAuth2 flows (Google lists an implicit
      // and a code flow together) carry the same bearer token, so one is enough; anything else would clash.
      const same = uses.find((x) => x.place === u.place && x.key.toLowerCase() === u.key.toLowerCase());
      if (same && same.value.startsWith("Bearer ") && u.value.startsWith("Bearer ")) continue;
      if (same) {
        unsupported.push(`security schemes ${uses.find((x) => x.key.toLowerCase() === u.key.toLowerCase())!.scheme} and ${schemeName} both set ${u.place} ${u.key}`);
        ok = false;
        break;
      }
      uses.push(u);
    }
    if (ok) return { uses, optional, unsupported: [] };
  }
  return { uses: [], optional, unsupported: [...new Set(unsupported)] };
}
