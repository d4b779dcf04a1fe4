// A real local identity provider for auth tests: RSA keys made with jose, a JWKS endpoint on 127.0.0.1
// that counts its fetches, and a token minter for good and deliberately bad tokens.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK, type KeyObject } from "jose";

export const ISSUER = "https://idp.test/";
export const RESOURCE = "https://mcp.test/mcp";

export interface Idp {
  jwksUrl: string;
  /** JWKS fetches served so far. */
  fetches: number;
  /** Key ids the JWKS endpoint publishes (add one to rotate). */
  published: Set<string>;
  token(claims?: Record<string, unknown>, opts?: { kid?: string; expSec?: number; nbfSec?: number; iatSec?: number; typ?: string | null }): Promise<string>;
  /** Bytes of filler the JWKS endpoint adds to its document (0: none), streamed in 1 MiB chunks. */
  padding: number;
  /** Filler bytes written so far (a client that stops reading stops this short of padding). */
  padded: number;
  /** HS256 signed with the public key's PEM as the secret (the classic algorithm confusion). */
  hsWithPublicKey(claims?: Record<string, unknown>): Promise<string>;
  /** The JWKS document as the endpoint serves it now. */
  jwks(): { keys: JWK[] };
  /** An unsecured JWT (alg none). */
  unsigned(claims?: Record<string, unknown>): string;
  close(): Promise<void>;
}

interface Key {
  priv: KeyObject | CryptoKey;
  jwk: JWK;
  pem: string;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

export async function startIdp(kids: string[] = ["k1", "k2", "k3"]): Promise<Idp> {
  const keys = new Map<string, Key>();
  for (const kid of kids) {
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    keys.set(kid, { priv: privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }, pem: await exportSPKI(publicKey) });
  }
  const idp = { fetches: 0, published: new Set([kids[0]]), padding: 0, padded: 0 } as Idp;
  const server: Server = createServer((req, res) => {
    if (req.url !== "/jwks.json") return void res.writeHead(404).end();
    idp.fetches++;
    const body = JSON.stringify({ keys: [...idp.published].map((kid) => keys.get(kid)!.jwk) });
    if (idp.padding === 0) return void res.writeHead(200, { "content-type": "application/json" }).end(body);
    // A huge document (no content-length): the keys, then a long string field written as the reader takes it.
    res.writeHead(200, { "content-type": "application/json" });
    res.write(`${body.slice(0, -1)},"filler":"`);
    const chunk = "x".repeat(1024 * 1024);
    const pump = () => {
      while (idp.padded < idp.padding) {
        idp.padded += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end('"}');
    };
    res.on("error", () => undefined);
    pump();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  idp.jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
  const base = (claims: Record<string, unknown>) => ({ iss: ISSUER, aud: RESOURCE, sub: "alice", scope: "jobs", ...claims });
  idp.token = async (claims = {}, opts = {}) => {
    const kid = opts.kid ?? kids[0];
    const now = Math.floor(Date.now() / 1000);
    const typ = opts.typ === undefined ? { typ: "at+jwt" } : opts.typ === null ? {} : { typ: opts.typ };
    const jwt = new SignJWT(base(claims)).setProtectedHeader({ alg: "RS256", kid, ...typ }).setIssuedAt(now + (opts.iatSec ?? 0)).setExpirationTime(now + (opts.expSec ?? 300));
    if (opts.nbfSec !== undefined) jwt.setNotBefore(now + opts.nbfSec);
    return jwt.sign(keys.get(kid)!.priv);
  };
  idp.hsWithPublicKey = async (claims = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ...base(claims), exp: now + 300 }).setProtectedHeader({ alg: "HS256", kid: kids[0] }).sign(new TextEncoder().encode(keys.get(kids[0])!.pem));
  };
  idp.unsigned = (claims = {}) => `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...base(claims), exp: Math.floor(Date.now() / 1000) + 300 })}.`;
  idp.jwks = () => ({ keys: [...idp.published].map((kid) => keys.get(kid)!.jwk) });
  idp.close = () => new Promise((r) => server.close(() => r()));
  return idp;
}
