// The authorization gate of the Streamable HTTP transport: protected resource metadata (RFC 9728),
// bearer token checks with RFC 6750 challenges (401/403), tokens in the query string refused, and the
// per-principal view of the tools. The caller's token stops here: nothing after the gate sees it.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { errorMessage, INVALID_REQUEST, RpcError } from "../jsonrpc.js";
import type { Core } from "../core.js";
import { bearerVerifier } from "./bearer.js";
import { scopeViews } from "./scopes.js";
import type { AuthDef, Principal } from "./types.js";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** `until`: the time (ms) past which a success must be checked again (a static token: never). */
type Verdict = { ok: true; principal: Principal; until: number } | { ok: false; reason: string };

/**
 * The last admitted Authorization header of a connection, with its principal and expiry. A client on a
 * kept-alive connection sends the same header with every request: comparing it with the last one skips
 * the header parse and the lookup keyed by the whole token. The admission (signature, claims, scopes)
 * is the one the token got before, valid no longer than that verdict was.
 */
const ADMITTED = Symbol("kervan.admitted");
type Admitted = { header: string; principal: Principal; until: number };
type AuthSocket = Socket & { [ADMITTED]?: Admitted };

export interface AuthGate {
  mode: AuthDef["mode"];
  /** Extra Host names to accept: the canonical URI's host (the name clients use behind a proxy). */
  hosts: string[];
  /** Answers GET on the metadata paths; true when the path was one. */
  serveMetadata(path: string, req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * The caller's principal, or null once a 400/401/403 has been sent. Without auth the answer is
   * immediate (no promise to wait for); a token is checked asynchronously.
   */
  authenticate(req: IncomingMessage, res: ServerResponse): Principal | null | Promise<Principal | null>;
  viewFor(principal: Principal): Core;
  /** Sends the 403 for a tools/call outside the principal's view; the same answer whether the tool exists or not. */
  refuseCall(res: ServerResponse): void;
}

function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

function challenge(params: Record<string, string | undefined>): string {
  const parts = Object.entries(params).filter(([, v]) => v !== undefined && v !== "").map(([k, v]) => `${k}=${quote(v!)}`);
  return parts.length ? `Bearer ${parts.join(", ")}` : "Bearer";
}

function send(res: ServerResponse, status: number, message: string, wwwAuthenticate: string): void {
  const body = errorMessage(undefined, new RpcError(INVALID_REQUEST, message));
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "www-authenticate": wwwAuthenticate });
  res.end(body);
}

function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (typeof header !== "string") return null;
  const m = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i.exec(header);
  return m ? m[1] : null;
}

/** RFC 9728 §3.1: the metadata URL of a resource with a path is the well-known path followed by it. */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}${WELL_KNOWN}${path}`;
}

export async function createAuthGate(core: Core, auth: AuthDef): Promise<AuthGate> {
  const oauth = auth.oauth;
  const views = scopeViews(core, oauth?.scopes ?? []);
  const required = oauth?.scopes ?? [];
  const metaUrl = oauth ? metadataUrl(oauth.resource) : undefined;
  const scopeHint = (required.length ? required : views.all).join(" ");
  const base = oauth ? { resource_metadata: metaUrl } : { realm: core.def.name };

  // A verdict comes at once when it can (a static token, a token verified before), else as a promise.
  let verify: (token: string) => Verdict | Promise<Verdict>;
  if (auth.mode === "oauth") {
    const { oauthVerifier } = await import("./oauth.js");
    verify = oauthVerifier(oauth!);
  } else if (auth.mode === "bearer") {
    const check = bearerVerifier(auth.bearer!.tokens);
    const verdicts = new Map<Principal, Verdict>();
    const refused: Verdict = { ok: false, reason: "token not recognised" };
    verify = (token) => {
      const principal = check(token);
      if (principal === null) return refused;
      let verdict = verdicts.get(principal);
      if (verdict === undefined) verdicts.set(principal, (verdict = { ok: true, principal, until: Infinity }));
      return verdict;
    };
  } else verify = () => ({ ok: false, reason: "no auth" });

  const metadata = oauth
    ? JSON.stringify({
        resource: oauth.resource,
        authorization_servers: oauth.authorizationServers,
        ...(views.all.length ? { scopes_supported: views.all } : {}),
        bearer_methods_supported: ["header"],
        resource_name: core.def.title ?? core.def.name,
      })
    : undefined;
  const metaPaths = oauth ? new Set([WELL_KNOWN, new URL(metaUrl!).pathname]) : new Set<string>();

  return {
    mode: auth.mode,
    hosts: oauth ? [new URL(oauth.resource).hostname.toLowerCase()] : [],
    serveMetadata(path, req, res) {
      if (!metaPaths.has(path)) return false;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" });
        res.end();
        return true;
      }
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(metadata!), "cache-control": "public, max-age=3600" });
      res.end(req.method === "HEAD" ? undefined : metadata);
      return true;
    },
    authenticate(req, res) {
      const url = req.url ?? "";
      const q = url.indexOf("?");
      if (q !== -1 && new URLSearchParams(url.slice(q + 1)).has("access_token")) {
        send(res, 400, "Access tokens are accepted in the Authorization header only, never in the query string", challenge({ ...base, error: "invalid_request", error_description: "token in the query string" }));
        return null;
      }
      if (auth.mode === "none") return addressPrincipal(req.socket);
      return checkToken(req, res);
    },
    viewFor: (principal) => views.viewFor(principal),
    refuseCall(res) {
      send(res, 403, "Forbidden: the token's scopes do not allow this call", challenge({ ...base, error: "insufficient_scope", scope: views.all.join(" ") }));
    },
  };

  function checkToken(req: IncomingMessage, res: ServerResponse): Principal | null | Promise<Principal | null> {
    const header = req.headers.authorization;
    const socket = req.socket as AuthSocket;
    const last = socket[ADMITTED];
    if (last !== undefined && last.header === header && (last.until === Infinity || last.until > Date.now())) return last.principal;
    const token = bearerToken(req);
    if (token === null) {
      send(res, 401, "Unauthorized: a bearer token is required", challenge({ ...base, scope: scopeHint }));
      return null;
    }
    const verdict = verify(token);
    return verdict instanceof Promise ? verdict.then((v) => remember(socket, header!, admit(v, res), v)) : remember(socket, header!, admit(verdict, res), verdict);
  }

  function remember(socket: AuthSocket, header: string, principal: Principal | null, verdict: Verdict): Principal | null {
    if (principal !== null && verdict.ok) socket[ADMITTED] = { header, principal, until: verdict.until };
    return principal;
  }

  function admit(verdict: Verdict, res: ServerResponse): Principal | null {
    if (!verdict.ok) {
      send(res, 401, `Unauthorized: ${verdict.reason}`, challenge({ ...base, scope: scopeHint, error: "invalid_token", error_description: verdict.reason }));
      return null;
    }
    const held = verdict.principal.scopes;
    const missing = held === null || required.length === 0 ? [] : required.filter((s) => !held.has(s));
    if (missing.length) {
      send(res, 403, `Forbidden: the token lacks scope ${missing.join(", ")}`, challenge({ ...base, error: "insufficient_scope", scope: required.join(" ") }));
      return null;
    }
    return verdict.principal;
  }
}

const PRINCIPAL = Symbol("kervan.addressPrincipal");

/** Without auth the client's address is the principal: one per connection, made at its first request. */
function addressPrincipal(socket: Socket & { [PRINCIPAL]?: Principal }): Principal {
  return (socket[PRINCIPAL] ??= { id: `addr:${socket.remoteAddress ?? "unknown"}`, scopes: null });
}
