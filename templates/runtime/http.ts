// Streamable HTTP transport (2026-07-28, POST-only, stateless). node:http is loaded only when --http is used.
// Legacy 2025 clients are served per request, with no sticky state: a request without modern _meta whose
// MCP-Protocol-Version header is absent or a legacy version gets 2025 semantics (initialize included).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { HttpAsks } from "./http-asks.js";
import { classify, errorMessage, INVALID_REQUEST, PARSE_ERROR, replyMessage, REQUEST_CANCELLED, RpcError, type JsonRpcRequest } from "./jsonrpc.js";
import { hasModernMeta, isLegacyVersion } from "./protocol.js";
import { dispatch } from "./dispatch.js";
import { createHeaderValidator, headerValue } from "./http-headers.js";
import { bracket, hostAllowList, hostnameOf, isJsonContentType, originAllowed } from "./http-guard.js";
import { capConnections, markBusy, readBody, serverOptions, type Limits } from "./http-limits.js";
import { describeError, log } from "./log.js";
import { onShutdown, releaseCall, trackCall, type CallHandle } from "./shutdown.js";
import type { Core } from "./core.js";
import { callTarget } from "./call-target.js";
import type { AuthGate } from "./auth/gate.js";
import { installDrain, requestClosed, trackRequest } from "./drain.js";
import { beginRequest, endRequest, outcomeOf, type RequestNote } from "./request-log.js";
import { cancelFrom } from "./cancel.js";
import type { Principal } from "./auth/types.js";
import { serveHealth } from "./health.js";

export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long a refused oversize body is still read (and dropped) before the connection closes. */
const DRAIN_MS = 5_000;
const ENDPOINT = "/mcp";

export interface HttpOptions {
  host: string;
  port: number;
  allowedHosts: string[];
  /** Serialized origins (scheme://host[:port]) browsers may call from; empty by default. */
  allowedOrigins: string[];
  limits: Limits;
  /** Authorization (RFC 9728 metadata, bearer checks, per-principal tool views). */
  gate: AuthGate;
  drainMs: number;
  drainGraceMs: number;
}

function sendJson(res: ServerResponse, status: number, body: string, extra?: Record<string, string>): void {
  const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
  res.writeHead(status, extra ? { ...headers, ...extra } : headers);
  res.end(body);
}

/** A request that failed in the transport itself: logged, answered 500 when nothing was sent yet. */
function failed(res: ServerResponse, err: unknown): void {
  log(`HTTP request failed: ${describeError(err)}`);
  if (!res.headersSent) sendError(res, 500, "Internal error");
  else res.destroy();
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" };

function sendError(res: ServerResponse, status: number, message: string, extra?: Record<string, string>): void {
  // Id-less JSON-RPC error body, as the spec allows for transport-level rejections.
  sendJson(res, status, errorMessage(undefined, new RpcError(INVALID_REQUEST, message)), extra);
}

/** Sockets whose failure has already been logged, so one aborted request is one line. */
const reported = new WeakSet<Socket>();

// Per-request cost is most of what separates this transport from a bare node:http server, so a request
// carries its state in two fixed properties of its response and has exactly one "close" listener (a shared
// function, no closure): it aborts the request's call when the client went away before the answer, writes
// the request's log line and counts the request out of the drain.
const CALL = Symbol("kervan.call");
type Served = ServerResponse & { [CALL]: CallHandle | undefined };

function onResponseClose(this: Served): void {
  const call = this[CALL];
  if (call !== undefined && !this.writableFinished) call.abort();
  endRequest(this.req, this);
  requestClosed();
}

function clientErrorLine(err: Error & { code?: string }): string {
  switch (err.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return "request timed out before it was complete; connection closed";
    case "HPE_INVALID_EOF_STATE": // the client hung up in the middle of a request
      return "request aborted by the client before it was complete";
    default:
      return `malformed request (${err.code ?? err.message}); connection closed`;
  }
}

export async function startHttp(core: Core, opts: HttpOptions): Promise<void> {
  const http = await import("node:http");
  const allowedHosts = hostAllowList(opts.host, [...opts.allowedHosts, ...opts.gate.hosts]);
  const allowedOrigins = new Set(opts.allowedOrigins);
  const validateHeaders = createHeaderValidator(core);
  const asks = new HttpAsks();
  // With auth on, a server whose tools need scopes lists a different set to different principals.
  const privateTools = opts.gate.mode !== "none" && core.def.tools.some((t) => (t.scopes?.length ?? 0) > 0);
  // Verdicts per Host header value (clients send the same few), bounded: a flood of odd values only clears it.
  const hostVerdicts = new Map<string, boolean>();
  const hostAllowed = (host: string): boolean => {
    let ok = hostVerdicts.get(host);
    if (ok === undefined) {
      ok = allowedHosts.has(hostnameOf(host));
      if (hostVerdicts.size >= 256) hostVerdicts.clear();
      hostVerdicts.set(host, ok);
    }
    return ok;
  };

  /** Runs one request and answers it; never rejects (a failure is logged and answered 500). */
  async function serve(req: IncomingMessage, res: Served, note: RequestNote, msg: JsonRpcRequest, view: Core, principal: Principal): Promise<void> {
    try {
      await call(req, res, note, msg, view, principal);
    } catch (err) {
      failed(res, err);
    } finally {
      markBusy(req.socket, false);
    }
  }

  async function call(req: IncomingMessage, res: Served, note: RequestNote, msg: JsonRpcRequest, core: Core, principal: Principal): Promise<void> {
    const { params } = msg;
    const version = headerValue(req.headers, "mcp-protocol-version");
    const legacy = !hasModernMeta(params) && (version === undefined || isLegacyVersion(version));
    note.method = msg.method;
    note.tool = msg.method === "tools/call" ? callTarget(core, params) : undefined;
    note.id = msg.id;
    note.era = legacy ? "2025-11-25" : "2026-07-28";
    // Closing the response stream is the cancellation signal on this transport (see onResponseClose).
    const call = trackCall(principal.id, msg.id);
    res[CALL] = call;
    // With SSE accepted, the stream opens at the first notification (progress) and the reply ends it.
    const accept = req.headers.accept ?? "";
    const sseOk = accept.includes("text/event-stream");
    let streaming = false;
    const notify = sseOk
      ? (message: Record<string, unknown>) => {
          if (res.destroyed || res.writableEnded) return;
          if (!streaming) {
            streaming = true;
            res.writeHead(200, SSE_HEADERS);
          }
          res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
        }
      : undefined;
    // A 2025-11-25 client's questions go on this call's event stream (see http-asks.ts).
    if (legacy && msg.method === "initialize") asks.remember(principal.id, params);
    const asker = legacy && (msg.method === "tools/call" || msg.method === "prompts/get") ? asks.askerFor(principal.id, notify, call) : undefined;
    const route = legacy
      ? { legacy, transport: "tcp" as const, principal: principal.id, ...(asker ? { asker } : {}) }
      : { legacy, transport: "tcp" as const, principal: principal.id, checkModern: (requested: string) => validateHeaders(req.headers, msg, requested), privateTools, ...(version !== undefined ? { declaredVersion: version } : {}) };
    let reply;
    try {
      reply = await dispatch(core, msg, route, call, notify);
    } finally {
      releaseCall(call);
    }
    if (call.cancelled && !res.destroyed) {
      // A cancelled request gets no JSON-RPC answer, but a POSTed request is answered with JSON or an
      // event stream (202 is for notifications): its stream ends with no message. A client that does
      // not take streams gets an error it can match by id.
      note.outcome = "cancelled";
      if (streaming) return void res.end();
      if (sseOk) {
        res.writeHead(200, SSE_HEADERS);
        return void res.end();
      }
      return sendJson(res, 200, errorMessage(msg.id, new RpcError(REQUEST_CANCELLED, "Request cancelled by the client")));
    }
    if (res.destroyed || call.aborted) {
      note.outcome = "aborted";
      return;
    }
    note.outcome = outcomeOf(reply);
    const body = replyMessage(msg.id, reply);
    if (streaming) return void res.end(`event: message\ndata: ${body}\n\n`);
    if ("error" in reply) {
      // 2025 clients read HTTP errors as transport failures (404 = session gone), so they get 200 + the JSON-RPC error.
      return sendJson(res, legacy ? 200 : reply.error.status, body);
    }
    if (sseOk && !accept.includes("application/json")) {
      res.writeHead(200, SSE_HEADERS);
      res.end(`event: message\ndata: ${body}\n\n`);
    } else sendJson(res, 200, body);
  }

  // From here to serve() nothing waits on a promise unless a token is being checked: the checks run as the
  // request arrives and the body reader calls back, so a request costs no async steps before its call runs.
  function handle(req: IncomingMessage, res: Served, note: RequestNote): void {
    const url = req.url ?? "";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    if (serveHealth(path, req, res)) return;
    const host = req.headers.host;
    if (host === undefined || !hostAllowed(host)) return sendError(res, 403, "Forbidden: Host header not allowed");
    if (!originAllowed(req.headers.origin, host, allowedOrigins)) return sendError(res, 403, "Forbidden: Origin not allowed");
    if (opts.gate.serveMetadata(path, req, res)) return;
    if (path !== ENDPOINT) {
      res.writeHead(404, { "content-type": "text/plain" });
      return void res.end("Not Found\n");
    }
    // GET (standalone SSE stream) and DELETE (session end) belong to the 2025 transport; this server has neither.
    if (req.method !== "POST") return sendError(res, 405, "Method not allowed: POST only", { allow: "POST" });
    if (!isJsonContentType(req.headers["content-type"])) {
      sendError(res, 415, "Unsupported Media Type: the body must be sent as application/json", { accept: "application/json", connection: "close" });
      return void res.on("finish", () => req.destroy());
    }
    const principal = opts.gate.authenticate(req, res);
    if (principal instanceof Promise) {
      // Only a token check waits.
      principal.then((p) => p !== null && receive(req, res, note, p)).catch((err) => failed(res, err));
    } else if (principal !== null) receive(req, res, note, principal);
  }

  function receive(req: IncomingMessage, res: Served, note: RequestNote, principal: Principal): void {
    note.principal = principal.id;
    readBody(req, MAX_BODY_BYTES, (raw) => {
      try {
        answer(req, res, note, principal, raw);
      } catch (err) {
        failed(res, err);
      }
    });
  }

  /**
   * 413 for a body over the limit. What the client is still sending is read and dropped first (at
   * most twice the limit, for at most DRAIN_MS), so that a client still writing its body reads the
   * answer instead of a broken connection; the answer then closes the connection. Answered at
   * once when the declared length is beyond that.
   */
  function refuseOversize(req: IncomingMessage, res: Served): void {
    let sent = false;
    const reply = () => {
      if (sent) return;
      sent = true;
      sendError(res, 413, `Request body too large: limited to ${MAX_BODY_BYTES} bytes`, { connection: "close" });
    };
    if (Number(req.headers["content-length"]) > 2 * MAX_BODY_BYTES) return reply();
    let dropped = 0;
    req.on("data", (chunk: Buffer) => {
      if ((dropped += chunk.length) > 2 * MAX_BODY_BYTES) reply();
    });
    req.on("end", reply);
    setTimeout(reply, DRAIN_MS).unref();
    req.resume();
  }

  function answer(req: IncomingMessage, res: Served, note: RequestNote, principal: Principal, raw: Buffer | null | "aborted"): void {
    if (raw === "aborted") {
      if (!reported.has(req.socket)) log("request aborted by the client before its body was complete");
      return;
    }
    if (raw === null) return refuseOversize(req, res);
    let value: unknown;
    try {
      value = JSON.parse(raw.toString("utf8"));
    } catch {
      return sendJson(res, 400, errorMessage(undefined, new RpcError(PARSE_ERROR, "Parse error: Invalid JSON")));
    }
    const inbound = classify(value);
    if (inbound.kind === "bad") return sendJson(res, 400, errorMessage(inbound.id, inbound.error));
    if (inbound.kind !== "request") {
      // Notifications (and stray responses) are accepted with no body. A 2025 client's notifications/cancelled
      // stops its own request (same principal); closing the response stream cancels too.
      if (inbound.kind === "notification") {
        note.method = inbound.msg.method;
        if (inbound.msg.method === "notifications/cancelled") note.outcome = `cancelled_${cancelFrom(principal.id, inbound.msg.params)}`;
      } else if (inbound.id !== undefined) {
        note.outcome = asks.deliver(principal.id, inbound.id, inbound) ? "answer_taken" : "answer_unmatched";
      }
      res.writeHead(202);
      return void res.end();
    }
    const { method, params } = inbound.msg;
    const view = opts.gate.viewFor(principal);
    if (method === "tools/call" && view !== core && !(typeof params?.name === "string" && view.tools.has(params.name))) {
      note.method = method;
      note.id = inbound.msg.id;
      note.outcome = "insufficient_scope";
      return opts.gate.refuseCall(res);
    }
    markBusy(req.socket, true);
    void serve(req, res, note, inbound.msg, view, principal);
  }

  const server = http.createServer(serverOptions(opts.limits), (req, response) => {
    const res = response as Served;
    trackRequest(res);
    const note = beginRequest(res);
    res[CALL] = undefined;
    res.on("close", onResponseClose);
    try {
      handle(req, res, note);
    } catch (err) {
      failed(res, err);
    }
  });
  capConnections(server, opts.limits.maxConnections);
  server.on("clientError", (err: Error & { code?: string }, socket: Socket) => {
    // A reset is logged (once) by the body reader when a request was under way; idle resets are not news.
    if (err.code !== "ECONNRESET") {
      reported.add(socket);
      log(clientErrorLine(err));
    }
    if (socket.writable && socket.bytesWritten === 0) {
      const status = err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? "408 Request Timeout" : err.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : "400 Bad Request";
      socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (err) => log(`HTTP server error: ${describeError(err)}`));
  const address = server.address() as AddressInfo;
  installDrain(server, opts);
  log(`listening on http://${bracket(address.address)}:${address.port}${ENDPOINT}`);
  onShutdown(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
}
