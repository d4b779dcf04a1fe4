// stdio transport: newline-delimited JSON-RPC on stdin/stdout. stdout carries protocol only.
// A legacy `initialize` switches requests without modern _meta to 2025 semantics for this process.
import { classify, errorMessage, INTERNAL_ERROR, INVALID_REQUEST, isObject, PARSE_ERROR, replyMessage, RpcError, type JsonRpcNotification, type JsonRpcRequest, type Reply } from "./jsonrpc.js";
import { hasModernMeta, negotiateLegacy } from "./protocol.js";
import { dispatch } from "./dispatch.js";
import { ClientRequests } from "./client-requests.js";
import { log } from "./log.js";
import { isShuttingDown, onShutdown, releaseCall, shutdown, trackCall, type CallHandle } from "./shutdown.js";
import type { Core } from "./core.js";
import { callTarget } from "./call-target.js";
import { endStdioRequest, outcomeOf, RequestNote } from "./request-log.js";

/** Longest accepted line; longer ones are discarded and answered with an error. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** After stdin EOF, in-flight calls get this long to answer before they are aborted. */
const EOF_GRACE_MS = 2000;

/** Thrown past the reply step for a cancelled call: the spec says not to answer it. */
const CANCELLED = Symbol("cancelled");

export function startStdio(core: Core): void {
  let legacyVersion: string | null = null;
  /** The initialize request's client capabilities (2025-11-25 era on this process). */
  let legacyCaps: unknown;
  const asks = new ClientRequests();
  const pending = new Map<string, CallHandle>();
  let ended = false;
  let parts: Buffer[] = [];
  let size = 0;
  let discarding = false;

  // Messages are gathered and written once per event-loop turn, in the order they were sent: one write
  // per answer cost more than answering a cheap call once many calls are in flight. What is pending
  // is written before the process exits (a shutdown hook, and the exit event for any other exit).
  let out = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const text = out;
    out = "";
    if (text !== "" && (!isShuttingDown() || process.stdout.writable)) process.stdout.write(text);
  };
  const send = (line: string) => {
    out += line + "\n";
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  onShutdown(flush);
  process.on("exit", flush);
  const keyOf = (id: unknown) => `${typeof id}:${String(id)}`;
  /** Answers a message that could not be served with an error, and logs it (no method known, or the id). */
  const refuse = (id: JsonRpcRequest["id"] | undefined, error: RpcError) => {
    send(errorMessage(id, error));
    const note = new RequestNote();
    if (id !== undefined) note.id = id;
    endStdioRequest(note, `error_${error.code}`);
  };
  const tooLong = () => refuse(undefined, new RpcError(INVALID_REQUEST, `Message too large: lines are limited to ${MAX_LINE_BYTES} bytes`));

  const maybeExit = () => {
    if (ended && pending.size === 0) void shutdown(0);
  };

  async function answer(msg: JsonRpcRequest, note: RequestNote): Promise<Reply> {
    const { method, params } = msg;
    const key = keyOf(msg.id);
    const call = trackCall();
    pending.set(key, call);
    let done = false;
    // Progress for this request goes out only while it is live and not cancelled.
    const notify = (message: Record<string, unknown>) => {
      if (!done && !call.cancelled) send(JSON.stringify(message));
    };
    try {
      const legacy = !hasModernMeta(params) && (legacyVersion !== null || method === "initialize");
      note.era = legacy ? "2025-11-25" : "2026-07-28";
      if (legacy && method === "initialize") {
        legacyVersion = negotiateLegacy(params?.protocolVersion);
        legacyCaps = params?.capabilities;
      }
      // A 2025-11-25 question is a request to the client (elicitation/create, sampling/createMessage, roots/list), as it declared at initialize.
      const asker = legacy ? { capabilities: legacyCaps, request: (m: string, p: Record<string, unknown>) => asks.ask((out) => send(JSON.stringify(out)), m, p, call.signal) } : undefined;
      return await dispatch(core, msg, { legacy, principal: "stdio", ...(asker ? { asker } : {}) }, call, notify);
    } finally {
      done = true;
      releaseCall(call);
      if (pending.get(key) === call) pending.delete(key);
      if (call.cancelled) throw CANCELLED;
    }
  }

  // One request log line per message, as on HTTP: method, tool, id, era, outcome and duration; never arguments.
  function request(msg: JsonRpcRequest): void {
    const note = new RequestNote();
    note.method = msg.method;
    note.id = msg.id;
    const name = msg.params?.name;
    if (msg.method === "tools/call" && typeof name === "string" && core.tools.has(name)) note.tool = callTarget(core, msg.params);
    answer(msg, note).then(
      (reply) => {
        send(replyMessage(msg.id, reply));
        endStdioRequest(note, outcomeOf(reply), "error" in reply && reply.error.code === INTERNAL_ERROR);
        maybeExit();
      },
      () => {
        endStdioRequest(note, "cancelled"); // the spec says not to answer
        maybeExit();
      },
    );
  }

  function notification(msg: JsonRpcNotification): void {
    const note = new RequestNote();
    note.method = msg.method;
    let outcome = "ok";
    if (msg.method === "notifications/cancelled") {
      const call = isObject(msg.params) ? pending.get(keyOf(msg.params.requestId)) : undefined;
      call?.cancel();
      outcome = `cancelled_${call ? 1 : 0}`;
    }
    // notifications/initialized and anything else need no action.
    endStdioRequest(note, outcome);
  }

  function line(text: string): void {
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return refuse(undefined, new RpcError(PARSE_ERROR, "Parse error: Invalid JSON"));
    }
    const inbound = classify(value);
    if (inbound.kind === "request") request(inbound.msg);
    else if (inbound.kind === "notification") notification(inbound.msg);
    else if (inbound.kind === "response" && inbound.id !== undefined) asks.deliver(inbound.id, inbound);
    else if (inbound.kind === "bad") refuse(inbound.id, inbound.error);
  }

  function onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (discarding) discarding = false;
      else if (size + piece.length > MAX_LINE_BYTES) tooLong();
      else {
        const whole = size === 0 ? piece : Buffer.concat([...parts, piece]);
        let text = whole.toString("utf8");
        if (text.endsWith("\r")) text = text.slice(0, -1);
        line(text);
      }
      parts = [];
      size = 0;
    }
    if (start >= chunk.length || discarding) return;
    const rest = chunk.subarray(start);
    if (size + rest.length > MAX_LINE_BYTES) {
      discarding = true; // drop the rest of this line, answer once, keep serving
      parts = [];
      size = 0;
      tooLong();
    } else {
      parts.push(rest);
      size += rest.length;
    }
  }

  function onEnd(): void {
    if (ended) return;
    ended = true;
    if (pending.size === 0) return void shutdown(0);
    setTimeout(() => void shutdown(0), EOF_GRACE_MS);
  }

  process.stdout.on("error", (err) => {
    log(`stdout closed: ${err.message}`);
    void shutdown(0);
  });
  process.stdin.on("data", onData);
  process.stdin.on("end", onEnd);
  process.stdin.on("error", onEnd);
}
