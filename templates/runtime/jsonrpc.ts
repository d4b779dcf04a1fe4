// JSON-RPC 2.0 framing: message shapes, error codes and reply builders shared by both transports.

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Implementation-defined (-32000..-32019): a cancelled request's answer to a client that takes no event stream. */
export const REQUEST_CANCELLED = -32000;
/** MCP 2026-07-28 codes (the spec reserves -32020..-32099; we emit only the ones it defines). */
export const HEADER_MISMATCH = -32020;
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

/** A protocol-level failure; `status` is the HTTP status the Streamable HTTP transport answers with. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly status = 200,
  ) {
    super(message);
  }
}

export type Reply = { result: Record<string, unknown> } | { error: RpcError };

/**
 * Classified inbound message; `bad` carries the error to answer. An id that could not be read is
 * undefined: the error then has no id member (both revisions' schema make it optional there, and an
 * MCP id is never null).
 */
export type Inbound =
  | { kind: "request"; msg: JsonRpcRequest }
  | { kind: "notification"; msg: JsonRpcNotification }
  | { kind: "response"; id: RequestId | undefined; result?: unknown; error?: unknown }
  | { kind: "bad"; id: RequestId | undefined; error: RpcError };

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A string, or an integer JSON.parse read exactly: beyond 2^53 a number has already lost digits
 * (2^70 reads as 1.1805916207174113e+21), so it could not be echoed as sent and is refused.
 */
function isId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

const BAD_ID = "Invalid request: id must be a string or an integer between -(2^53 - 1) and 2^53 - 1";

/** Sorts a parsed JSON value into request / notification / client response / invalid. */
export function classify(value: unknown): Inbound {
  if (Array.isArray(value)) {
    return { kind: "bad", id: undefined, error: new RpcError(INVALID_REQUEST, "Batch messages are not supported", undefined, 400) };
  }
  if (!isObject(value)) {
    return { kind: "bad", id: undefined, error: new RpcError(INVALID_REQUEST, "A message must be a JSON object", undefined, 400) };
  }
  const hasId = "id" in value;
  const id = hasId && isId(value.id) ? value.id : undefined;
  if (typeof value.method !== "string") {
    // A client answering a server request (a confirmation asked over stdio); the transport matches it by id.
    if (hasId && ("result" in value || "error" in value)) return { kind: "response", id, result: value.result, error: value.error };
    return { kind: "bad", id, error: new RpcError(INVALID_REQUEST, "Invalid request: method must be a string", undefined, 400) };
  }
  if (value.jsonrpc !== "2.0") {
    return { kind: "bad", id, error: new RpcError(INVALID_REQUEST, 'Invalid request: jsonrpc must be "2.0"', undefined, 400) };
  }
  if (value.params !== undefined && !isObject(value.params)) {
    return { kind: "bad", id, error: new RpcError(INVALID_REQUEST, "Invalid request: params must be an object", undefined, 400) };
  }
  if (!hasId) return { kind: "notification", msg: value as unknown as JsonRpcNotification };
  if (id === undefined) {
    return { kind: "bad", id: undefined, error: new RpcError(INVALID_REQUEST, BAD_ID, undefined, 400) };
  }
  return { kind: "request", msg: value as unknown as JsonRpcRequest };
}

/** JSON.stringify, or undefined when the value cannot be written (too deep for the stack, a cycle, a BigInt). */
function tryStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** The reply when a result cannot be serialized: still exactly one well-formed answer for the request. */
const UNSERIALIZABLE = "Internal error: the result could not be serialized";

export function resultMessage(id: RequestId, result: Record<string, unknown>): string {
  return tryStringify({ jsonrpc: "2.0", id, result }) ?? errorMessage(id, new RpcError(INTERNAL_ERROR, UNSERIALIZABLE, undefined, 500));
}

export function errorMessage(id: RequestId | undefined, error: RpcError): string {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.data !== undefined) body.data = error.data;
  // An error for a message whose id could not be read has no id (MCP: optional in JSONRPCErrorResponse, never null).
  const envelope = (b: Record<string, unknown>) => (id === undefined ? { jsonrpc: "2.0", error: b } : { jsonrpc: "2.0", id, error: b });
  // Error data that cannot be written is dropped; code and message always go out.
  return tryStringify(envelope(body)) ?? JSON.stringify(envelope({ code: error.code, message: error.message }));
}

export function replyMessage(id: RequestId, reply: Reply): string {
  return "result" in reply ? resultMessage(id, reply.result) : errorMessage(id, reply.error);
}

/** Maps an unexpected exception to -32603 without leaking a stack to the client. */
export function toRpcError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  return new RpcError(INTERNAL_ERROR, "Internal error", undefined, 500);
}
