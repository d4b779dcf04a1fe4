// Streamable HTTP request-metadata headers (2026-07-28): MCP-Protocol-Version, Mcp-Method, Mcp-Name and
// Mcp-Param-* must match the body; any missing, malformed or mismatched one is 400 + -32020.
import { clipText } from "./clip.js";
import type { IncomingHttpHeaders } from "node:http";
import { HEADER_MISMATCH, isObject, RpcError, type JsonRpcRequest } from "./jsonrpc.js";
import type { Core } from "./core.js";

interface ParamHeader {
  header: string; // lower-case name, as node:http presents it
  display: string;
  path: string[];
}

const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PLAIN = /^[\x20-\x7E\t]*$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

function mismatch(message: string): never {
  throw new RpcError(HEADER_MISMATCH, `Header mismatch: ${message}`, undefined, 400);
}

/** The header value with optional whitespace trimmed (RFC 9110 field parsing), or undefined. */
/** The tasks extension's methods, whose Mcp-Name header is the task id. */
const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  if (raw === undefined) return undefined;
  if (typeof raw === "string" && !/^[ \t]|[ \t]$/.test(raw)) return raw; // the usual case: nothing to trim
  return (Array.isArray(raw) ? raw.join(", ") : raw).replace(/^[ \t]+|[ \t]+$/g, "");
}

/** Decodes the =?base64?...?= form (strictly: alphabet, padding, UTF-8); other values must be plain visible ASCII. */
export function decodeHeaderValue(value: string, display: string): string {
  if (value.length >= SENTINEL_START.length + SENTINEL_END.length && value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)) {
    const inner = value.slice(SENTINEL_START.length, -SENTINEL_END.length);
    if (!BASE64.test(inner)) mismatch(`${display} is not valid Base64`);
    try {
      return utf8.decode(Buffer.from(inner, "base64"));
    } catch {
      return mismatch(`${display} does not decode to UTF-8 text`);
    }
  }
  if (!PLAIN.test(value)) mismatch(`${display} contains characters not allowed in a header value`);
  return value;
}

function expectEqual(headers: IncomingHttpHeaders, name: string, display: string, body: string, decode: boolean): void {
  const raw = headerValue(headers, name);
  if (raw === undefined) mismatch(`${display} header is required`);
  const value = decode ? decodeHeaderValue(raw, display) : raw;
  if (value !== body) mismatch(`${display} header value '${clipText(value)}' does not match body value '${clipText(body)}'`);
}

/** x-mcp-header annotations of a tool's input schema, following chains of `properties`. */
function collectParams(schema: unknown, path: string[], out: ParamHeader[]): void {
  if (!isObject(schema) || !isObject(schema.properties)) return;
  for (const [key, sub] of Object.entries(schema.properties)) {
    if (!isObject(sub)) continue;
    const name = sub["x-mcp-header"];
    if (typeof name === "string" && name !== "") {
      out.push({ header: `mcp-param-${name.toLowerCase()}`, display: `Mcp-Param-${name}`, path: [...path, key] });
    }
    collectParams(sub, [...path, key], out);
  }
}

function valueAt(args: unknown, path: string[]): unknown {
  let current = args;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

function sameValue(header: string, body: unknown): boolean {
  if (typeof body === "string") return header === body;
  if (typeof body === "number") return header.trim() !== "" && Number(header) === body; // 42.0 equals 42
  if (typeof body === "boolean") return header === String(body);
  return true; // x-mcp-header is defined for primitives only
}

export function createHeaderValidator(core: Core) {
  const params = new Map<string, ParamHeader[]>();
  const paramsOf = (tool: string): ParamHeader[] => {
    let list = params.get(tool);
    if (!list) {
      list = [];
      collectParams(core.tools.get(tool)?.inputSchema, [], list);
      params.set(tool, list);
    }
    return list;
  };

  return function validate(headers: IncomingHttpHeaders, msg: JsonRpcRequest, version: string): void {
    expectEqual(headers, "mcp-protocol-version", "MCP-Protocol-Version", version, false);
    expectEqual(headers, "mcp-method", "Mcp-Method", msg.method, false);
    const p = msg.params ?? {};
    const source =
      msg.method === "resources/read" ? p.uri
      : msg.method === "tools/call" || msg.method === "prompts/get" ? p.name
      : TASK_METHODS.has(msg.method) ? p.taskId // tasks extension: Mcp-Name carries the task id, for routing
      : undefined;
    if (typeof source === "string") expectEqual(headers, "mcp-name", "Mcp-Name", source, true);
    if (msg.method !== "tools/call" || typeof p.name !== "string" || !core.tools.has(p.name)) return;
    for (const param of paramsOf(p.name)) {
      const body = valueAt(p.arguments, param.path);
      const raw = headerValue(headers, param.header);
      if (body === undefined || body === null) {
        if (raw !== undefined) mismatch(`${param.display} header is present but the argument is absent`);
        continue;
      }
      if (raw === undefined) mismatch(`${param.display} header is required when the argument is present`);
      const value = decodeHeaderValue(raw, param.display);
      if (!sameValue(value, body)) mismatch(`${param.display} header value '${clipText(value)}' does not match the argument`);
    }
  };
}
