// Protocol versions, reserved _meta keys and per-request _meta / version checks (MCP 2026-07-28, basic/index).
import { INVALID_PARAMS, isObject, RpcError, UNSUPPORTED_PROTOCOL_VERSION } from "./jsonrpc.js";

export const MODERN_VERSION = "2026-07-28";
/** Initialize-era versions served with 2025-11-25 shapes (tools are shape-compatible across them). */
export const LEGACY_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26"];
export const LATEST_LEGACY = "2025-11-25";
/** Advertised by server/discover and in -32022 data: the two revisions this runtime is written against. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, LATEST_LEGACY];

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/** Cache hints for results that only change when the server is regenerated. */
export const CACHE_TTL_MS = 3_600_000;

export function isLegacyVersion(version: string): boolean {
  return LEGACY_VERSIONS.includes(version);
}

/** True when params carry modern per-request metadata, which selects 2026 semantics for that request. */
export function hasModernMeta(params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta;
  return isObject(meta) && (META_PROTOCOL_VERSION in meta || META_CLIENT_CAPABILITIES in meta || META_CLIENT_INFO in meta);
}

/**
 * Checks the required _meta fields; returns the requested version or throws -32602 (HTTP 400).
 * `declared` is a version the transport was told apart from the body (Streamable HTTP's
 * MCP-Protocol-Version header): a body with no version of its own asks for that one, so one we do
 * not serve is -32022 (UnsupportedProtocolVersionError), as the transport spec says, not -32602.
 */
export function requireMeta(params: Record<string, unknown> | undefined, declared?: string): string {
  const meta = params?._meta;
  if (declared !== undefined && !(isObject(meta) && typeof meta[META_PROTOCOL_VERSION] === "string")) requireSupported(declared);
  if (!isObject(meta)) {
    throw new RpcError(INVALID_PARAMS, `Invalid params: _meta with ${META_PROTOCOL_VERSION} and ${META_CLIENT_CAPABILITIES} is required on every request`, undefined, 400);
  }
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version !== "string") {
    throw new RpcError(INVALID_PARAMS, `Invalid params: _meta["${META_PROTOCOL_VERSION}"] must be a string`, undefined, 400);
  }
  if (!isObject(meta[META_CLIENT_CAPABILITIES])) {
    throw new RpcError(INVALID_PARAMS, `Invalid params: _meta["${META_CLIENT_CAPABILITIES}"] must be an object`, undefined, 400);
  }
  return version;
}

/** -32022 with the versions we serve, unless the requested one is among them. */
export function requireSupported(version: string): void {
  if (version === MODERN_VERSION || isLegacyVersion(version)) return;
  throw new RpcError(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", { supported: [...SUPPORTED_VERSIONS], requested: version }, 400);
}

/** The version an initialize reply names: the client's own when we serve it, else our latest legacy one. */
export function negotiateLegacy(requested: unknown): string {
  return typeof requested === "string" && isLegacyVersion(requested) ? requested : LATEST_LEGACY;
}
