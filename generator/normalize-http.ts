// normalize for server.http: the auth mode made explicit, optional lists sorted.
import type { Json } from "../templates/runtime/types.js";
import type { AuthDef } from "../templates/runtime/auth/types.js";
import { isObject } from "./shared/object.js";

type Obj = Record<string, Json>;
const obj = (v: Json | undefined): Obj | undefined => (isObject(v) ? v : undefined);
const strings = (v: Json | undefined): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined);
const sorted = (list: Json | undefined): string[] | undefined => (Array.isArray(list) ? [...new Set(list.map(String))].sort() : undefined);

export function normalizeHttp(http: Json | undefined): { http?: { auth?: AuthDef } } {
  if (!isObject(http)) return {};
  const auth = obj(http.auth);
  if (!auth) return { http: {} };
  const o = obj(auth.oauth);
  if (o) {
    const scopes = sorted(o.scopes);
    return {
      http: {
        auth: {
          mode: "oauth",
          oauth: {
            issuer: String(o.issuer),
            resource: String(o.resource),
            ...(typeof o.jwksUrl === "string" ? { jwksUrl: o.jwksUrl } : {}),
            ...(typeof o.jwksFile === "string" ? { jwksFile: o.jwksFile } : {}),
            algorithms: strings(o.algorithms) ?? ["RS256", "ES256"],
            authorizationServers: strings(o.authorizationServers) ?? [String(o.issuer)],
            scopes: scopes ?? [],
            clockToleranceSec: typeof o.clockToleranceSec === "number" ? o.clockToleranceSec : 30,
            ...(typeof o.tokenType === "string" ? { tokenType: o.tokenType } : {}),
          },
        },
      },
    };
  }
  const listed = obj(auth.bearer)?.tokens;
  const tokens = (Array.isArray(listed) ? listed.filter(isObject) : []).map((t) => ({ env: String(t.env), ...(sorted(t.scopes) ? { scopes: sorted(t.scopes)! } : {}) }));
  return { http: { auth: { mode: "bearer", bearer: { tokens } } } };
}
