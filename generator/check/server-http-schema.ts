// The spec's server.http fragment of kervan.schema.json: authorization of the Streamable HTTP transport.
import type { Json } from "../../templates/runtime/types.js";
import { ALLOWED_ALGORITHMS } from "../../templates/runtime/auth/types.js";

/** RFC 6749 §3.3 scope-token. */
export const SCOPE_PATTERN = "^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$";
export const SCOPES_SCHEMA: Record<string, Json> = { type: "array", items: { type: "string", pattern: SCOPE_PATTERN }, uniqueItems: true };
const URL_PATTERN = "^https?://[^\\s]+$";
const ENV_PATTERN = "^[A-Z_][A-Z0-9_]*$";

export function httpSchema(): Json {
  return {
    type: "object",
    additionalProperties: false,
    description: "Streamable HTTP settings (--http).",
    properties: {
      auth: {
        type: "object",
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1,
        description: "Who may call over HTTP: `oauth` (an OAuth 2.1 resource server) or `bearer` (static tokens). Flags and KERVAN_* variables override it at start.",
        properties: {
          oauth: {
            type: "object",
            additionalProperties: false,
            required: ["issuer", "resource"],
            properties: {
              issuer: { type: "string", minLength: 1, description: "Expected `iss` of access tokens." },
              resource: { type: "string", pattern: URL_PATTERN, description: "This server's canonical URI (e.g. https://mcp.example.com/mcp): the audience every token must carry." },
              jwksUrl: { type: "string", pattern: URL_PATTERN, description: "The issuer's JWKS URL (cached; refetched on an unknown key id after a cooldown)." },
              jwksFile: { type: "string", minLength: 1, description: "A local JWKS file, read at start." },
              algorithms: { type: "array", minItems: 1, uniqueItems: true, items: { enum: [...ALLOWED_ALGORITHMS] }, description: "Allowed signing algorithms (default RS256, ES256)." },
              authorizationServers: { type: "array", minItems: 1, items: { type: "string", pattern: URL_PATTERN }, description: "Named in the protected resource metadata (default: the issuer)." },
              scopes: { ...SCOPES_SCHEMA, description: "Scopes every request needs." },
              clockToleranceSec: { type: "integer", minimum: 0, maximum: 300, description: "Allowed clock skew for exp/nbf/iat (default 30)." },
              tokenType: { type: "string", minLength: 1, description: "The `typ` header every access token must carry (default at+jwt, RFC 9068; application/ prefix and case ignored); `any` checks none." },
            },
          },
          bearer: {
            type: "object",
            additionalProperties: false,
            required: ["tokens"],
            properties: {
              tokens: {
                type: "array",
                minItems: 1,
                items: {
                  type: "object",
                  additionalProperties: false,
                  required: ["env"],
                  properties: {
                    env: { type: "string", pattern: ENV_PATTERN, description: "Environment variable holding the token (16 characters at least)." },
                    scopes: { ...SCOPES_SCHEMA, description: "Scopes this token holds (default: all)." },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}
