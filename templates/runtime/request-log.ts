// One line per request on stderr: time, JSON-RPC method, tool, duration, outcome, request id and (HTTP) a
// hash of the principal. Never argument values, tokens or secrets: only names this server defines, the
// client's request id (clipped) and outcomes. --log-format text|json, --log-level debug|info|warn|error.
// Both transports write the same fields; HTTP adds the request line, the status and the principal hash.
// Cost matters here: a line below the level is decided from the status and outcome alone, before any
// string is built, and a request's note is a plain object with a fixed shape.
import type { IncomingMessage, ServerResponse } from "node:http";
import { writeStderr } from "./log.js";
import type { LogFormat, LogLevel } from "./serving-flags.js";
import type { Reply } from "./jsonrpc.js";

/** What a transport learnt about one request (its method, tool, outcome ...), for its log line. */
/** Milliseconds on a monotonic clock: process.hrtime, since the first `performance` use loads perf_hooks (a few ms of every start). */
function now(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}

export class RequestNote {
  method: string | undefined = undefined;
  tool: string | undefined = undefined;
  id: string | number | null | undefined = undefined;
  era: string | undefined = undefined;
  outcome: string | undefined = undefined;
  principal: string | undefined = undefined;
  readonly start = now();
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
// The note travels on the response itself: a WeakMap entry per request cost more than the whole log line
// decision (an ephemeron per response for the collector to trace), and the note dies with the response.
const NOTE = Symbol("kervan.requestNote");
type Noted = ServerResponse & { [NOTE]?: RequestNote };
let format: LogFormat = "text";
let threshold = LEVELS.info;
let serverName = "kervan";

export function configureRequestLog(name: string, opts: { logFormat: LogFormat; logLevel: LogLevel }): void {
  serverName = name;
  format = opts.logFormat;
  threshold = LEVELS[opts.logLevel];
}

/** Starts an HTTP request's note (kept on its response); the transport fills it in as it learns. */
export function beginRequest(res: ServerResponse): RequestNote {
  const note = new RequestNote();
  (res as Noted)[NOTE] = note;
  return note;
}

// A client sends many requests under one principal: its hash is remembered (a bounded map, cleared when full).
const hashes = new Map<string, string>();

export function principalHash(principal: string): string {
  let hash = hashes.get(principal);
  if (hash === undefined) {
    // node:crypto on first use (HTTP with a principal), not at every start: stdio servers never need it.
    hash = process.getBuiltinModule("node:crypto").createHash("sha256").update(principal).digest("hex").slice(0, 12);
    if (hashes.size >= 1024) hashes.clear();
    hashes.set(principal, hash);
  }
  return hash;
}

function clipId(id: RequestNote["id"]): string | number | null | undefined {
  return typeof id === "string" && id.length > 64 ? `${id.slice(0, 64)}…` : id;
}

const METHOD = /^[\w/.-]{1,64}$/;
const NEEDS_QUOTES = /[^\x21-\x7e]|["=]/;

type Level = "debug" | "info" | "error";

// The time field, remade at most once per millisecond: a busy server writes many lines per millisecond.
let stampMs = -1;
let stamp = "";
function isoNow(): string {
  const now = Date.now();
  if (now !== stampMs) {
    stampMs = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

/** key=value for the text format; values a client chose (the id) or that may hold odd characters are quoted. */
function field(key: string, v: string | number | null | undefined): string {
  if (v === undefined || v === null) return "";
  return ` ${key}=${typeof v === "string" && NEEDS_QUOTES.test(v) ? JSON.stringify(v) : String(v)}`;
}

function write(level: Level, note: RequestNote, outcome: string, head: { http?: string; status?: number; transport?: string }): void {
  const method = note.method === undefined ? undefined : METHOD.test(note.method) ? note.method : "(invalid)";
  const ms = Math.round((now() - note.start) * 100) / 100;
  const principal = note.principal ? principalHash(note.principal) : undefined;
  if (format === "json") {
    const entry = { time: isoNow(), level, server: serverName, ...head, method, tool: note.tool, id: clipId(note.id), era: note.era, outcome, ms, principal };
    return writeStderr(JSON.stringify(entry) + "\n");
  }
  // method matches METHOD, era and outcome are this server's words, ms a number, principal hex: only
  // the tool (a name from the spec) and the client's id can need quotes.
  writeStderr(
    `${serverName}: ${isoNow()} ${level} ${head.http ?? head.transport}${head.status === undefined ? "" : ` ${head.status}`}` +
      `${method === undefined ? "" : ` method=${method}`}${field("tool", note.tool)}${field("id", clipId(note.id))}` +
      `${note.era === undefined ? "" : ` era=${note.era}`} outcome=${outcome} ms=${ms}${principal === undefined ? "" : ` principal=${principal}`}\n`,
  );
}

/** Writes an HTTP request's line once its response is closed (or nothing, below the level). */
export function endRequest(req: IncomingMessage, res: ServerResponse): void {
  const note = (res as Noted)[NOTE];
  const status = res.headersSent ? res.statusCode : 0;
  const failed = status >= 500 || note?.outcome === "internal_error";
  if (threshold > LEVELS.info && !failed) return; // warn and above: only failures are written
  const url = req.url ?? "";
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const level: Level = path === "/healthz" || path === "/readyz" ? "debug" : failed ? "error" : "info";
  if (LEVELS[level] < threshold) return;
  const outcome = note?.outcome ?? (res.writableFinished ? (status < 400 ? "ok" : `http_${status}`) : "closed");
  write(level, note ?? new RequestNote(), outcome, { http: `${req.method} ${path.length > 64 ? path.slice(0, 64) + "…" : path}`, status });
}

/** A request's outcome as both transports log it: ok, tool_error, or error_<JSON-RPC code>. */
export function outcomeOf(reply: Reply): string {
  return "error" in reply ? `error_${reply.error.code}` : (reply.result as { isError?: unknown }).isError === true ? "tool_error" : "ok";
}

/**
 * Writes a stdio message's line: the same fields as HTTP, without its request line, status and principal
 * (one client per process). `failed` (an internal error) makes it an error line, as a 500 is on HTTP.
 */
export function endStdioRequest(note: RequestNote, outcome: string, failed = false): void {
  const level: Level = failed ? "error" : "info";
  if (LEVELS[level] < threshold) return;
  write(level, note, outcome, { transport: "stdio" });
}

/** Writes the line of a call a program made from inside `execute` (server.exposure: code): the fields of a tools/call. */
export function endInnerRequest(note: RequestNote, outcome: string): void {
  if (LEVELS.info < threshold) return;
  write("info", note, outcome, { transport: "execute" });
}
