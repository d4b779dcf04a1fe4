// normalize for server.http: the auth mode made explicit, optional lists sorted.
import type { Json } from "../templates/runtime/types.js";
import type { AuthDef } from "../templates/runtime/auth/types.js";

type Obj = Record<string, Json>;
const sorted = (list: Json | undefined): string[] | undefined => (Array.isArray(list) ? [...new Set(list.map(String))].sort() : undefined);

export function normalizeHttp(http: Json | undefined): { http?: { auth?: AuthDef } } {
  if (!http || typeof http !== "object" || Array.isArray(http)) return {};
  const auth = (http as Obj).auth as Obj | undefined;
  if (!auth) return { http: {} };
  if (auth.oauth) {
    const o = auth.oauth as Obj;
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
            algorithms: (o.algorithms as string[] | undefined) ?? ["RS256", "ES256"],
            authorizationServers: (o.authorizationServers as string[] | undefined) ?? [String(o.issuer)],
            scopes: scopes ?? [],
            clockToleranceSec: typeof o.clockToleranceSec === "number" ? o.clockToleranceSec : 30,
            ...(typeof o.tokenType === "string" ? { tokenType: o.tokenType } : {}),
          },
        },
      },
    };
  }
  const tokens = ((auth.bearer as Obj).tokens as Obj[]).map((t) => ({ env: String(t.env), ...(sorted(t.scopes) ? { scopes: sorted(t.scopes)! } : {}) }));
  return { http: { auth: { mode: "bearer", bearer: { tokens } } } };
}
