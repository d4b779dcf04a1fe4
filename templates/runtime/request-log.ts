// One line per HTTP request on stderr: time, JSON-RPC method, tool, duration, outcome, request id and a
// hash of the principal. Never argument values, tokens or secrets: only names this server defines, the
// client's request id (clipped) and outcomes. --log-format text|json, --log-level debug|info|warn|error.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { writeStderr } from "./log.js";
import type { LogFormat, LogLevel } from "./serving-flags.js";

export interface RequestNote {
  method?: string;
  tool?: string;
  id?: string | number | null;
  era?: string;
  outcome?: string;
  principal?: string;
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

/** Adds what the transport learnt about a request (its method, tool, outcome ...) to its log line. */
export function annotate(res: ServerResponse, note: RequestNote): void {
  const current = (res as Noted)[NOTE];
  if (current) Object.assign(current, note);
  else (res as Noted)[NOTE] = { ...note };
}

// A client sends many requests under one principal: its hash is remembered (a bounded map, cleared when full).
const hashes = new Map<string, string>();

export function principalHash(principal: string): string {
  let hash = hashes.get(principal);
  if (hash === undefined) {
    hash = createHash("sha256").update(principal).digest("hex").slice(0, 12);
    if (hashes.size >= 1024) hashes.clear();
    hashes.set(principal, hash);
  }
  return hash;
}

function clipId(id: RequestNote["id"]): string | number | null | undefined {
  return typeof id === "string" && id.length > 64 ? `${id.slice(0, 64)}…` : id;
}

function levelOf(status: number, path: string, outcome: string | undefined): LogLevel {
  if (path === "/healthz" || path === "/readyz") return "debug";
  if (status >= 500 || outcome === "internal_error") return "error";
  return "info";
}

export function beginRequest(req: IncomingMessage, res: ServerResponse): void {
  const start = process.hrtime.bigint();
  res.once("close", () => {
    const path = (req.url ?? "").split("?")[0];
    const note = (res as Noted)[NOTE] ?? {};
    const status = res.headersSent ? res.statusCode : 0;
    const outcome = note.outcome ?? (res.writableFinished ? (status < 400 ? "ok" : `http_${status}`) : "closed");
    const level = levelOf(status, path, outcome);
    if (LEVELS[level] < threshold) return;
    const entry = {
      time: new Date().toISOString(),
      level,
      server: serverName,
      http: `${req.method} ${path.length > 64 ? path.slice(0, 64) + "…" : path}`,
      status,
      method: note.method === undefined ? undefined : /^[\w/.-]{1,64}$/.test(note.method) ? note.method : "(invalid)",
      tool: note.tool,
      id: clipId(note.id),
      era: note.era,
      outcome,
      ms: Math.round(Number(process.hrtime.bigint() - start) / 1e4) / 100,
      principal: note.principal ? principalHash(note.principal) : undefined,
    };
    if (format === "json") return writeStderr(JSON.stringify(entry) + "\n");
    const parts = [entry.time, level, entry.http, String(status)];
    for (const key of ["method", "tool", "id", "era", "outcome", "ms", "principal"] as const) {
      const v = entry[key];
      if (v !== undefined && v !== null) parts.push(`${key}=${typeof v === "string" && /[^\x21-\x7e]|["=]/.test(v) ? JSON.stringify(v) : String(v)}`);
    }
    writeStderr(`${serverName}: ${parts.join(" ")}\n`);
  });
}
