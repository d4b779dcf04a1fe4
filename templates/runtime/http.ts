// Streamable HTTP transport (2026-07-28, POST-only, stateless). node:http is loaded only when --http is used.
// Legacy 2025 clients are served per request, with no sticky state: a request without modern _meta whose
// MCP-Protocol-Version header is absent or a legacy version gets 2025 semantics (initialize included).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { classify, errorMessage, INVALID_REQUEST, PARSE_ERROR, replyMessage, RpcError, toRpcError, type JsonRpcRequest, type Reply } from "./jsonrpc.js";
import { hasModernMeta, isLegacyVersion, requireMeta, requireSupported } from "./protocol.js";
import { serveLegacy } from "./legacy.js";
import { serveModern } from "./modern.js";
import { createHeaderValidator, headerValue } from "./http-headers.js";
import { describeError, log } from "./log.js";
import { onShutdown, trackCall } from "./shutdown.js";
import type { Core } from "./core.js";

export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const ENDPOINT = "/mcp";
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

export interface HttpOptions {
  host: string;
  port: number;
  allowedHosts: string[];
}

function bracket(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host.toLowerCase();
}

/** Host names a browser may legitimately send for this server; everything else is DNS rebinding. */
function allowList(opts: HttpOptions): Set<string> {
  const names = new Set([...LOOPBACK, ...opts.allowedHosts.map(bracket)]);
  if (opts.host !== "0.0.0.0" && opts.host !== "::") names.add(bracket(opts.host));
  return names;
}

function hostnameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.indexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}

function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.hostname.toLowerCase() : null;
  } catch {
    return null; // includes the opaque "null" origin
  }
}

function sendJson(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...extra });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, message: string, extra?: Record<string, string>): void {
  // Id-less JSON-RPC error body, as the spec allows for transport-level rejections.
  sendJson(res, status, errorMessage(undefined, new RpcError(INVALID_REQUEST, message)), extra);
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return resolve(null);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners("data");
        req.pause();
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startHttp(core: Core, opts: HttpOptions): Promise<void> {
  const http = await import("node:http");
  const allowed = allowList(opts);
  const validateHeaders = createHeaderValidator(core);

  async function serve(req: IncomingMessage, res: ServerResponse, msg: JsonRpcRequest): Promise<void> {
    const { method, params } = msg;
    const version = headerValue(req.headers, "mcp-protocol-version");
    const legacy = !hasModernMeta(params) && (version === undefined || isLegacyVersion(version));
    const { controller, release } = trackCall();
    // Closing the response stream is the cancellation signal on this transport.
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    // With SSE accepted, the stream opens at the first notification (progress) and the reply ends it.
    const accept = req.headers.accept ?? "";
    const sseOk = accept.includes("text/event-stream");
    let streaming = false;
    const openStream = () => {
      if (streaming) return;
      streaming = true;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" });
    };
    const notify = sseOk
      ? (message: Record<string, unknown>) => {
          if (res.destroyed || res.writableEnded) return;
          openStream();
          res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
        }
      : undefined;
    let reply: Reply;
    try {
      if (legacy) reply = { result: await serveLegacy(core, method, params, controller.signal, notify) };
      else {
        const requested = requireMeta(params); // -32602 before header checks: a missing _meta is not a header problem
        validateHeaders(req.headers, msg, requested);
        requireSupported(requested);
        const result = isLegacyVersion(requested)
          ? await serveLegacy(core, method, params, controller.signal, notify)
          : await serveModern(core, method, params, controller.signal, notify);
        reply = { result };
      }
    } catch (err) {
      if (!(err instanceof RpcError)) log(`request ${method} failed: ${describeError(err)}`);
      reply = { error: toRpcError(err) };
    } finally {
      release();
    }
    if (res.destroyed || controller.signal.aborted) return;
    const body = replyMessage(msg.id, reply);
    if (streaming) return void res.end(`event: message\ndata: ${body}\n\n`);
    if ("error" in reply) {
      // 2025 clients read HTTP errors as transport failures (404 = session gone), so they get 200 + the JSON-RPC error.
      return sendJson(res, legacy ? 200 : reply.error.status, body);
    }
    if (sseOk && !accept.includes("application/json")) {
      openStream();
      res.end(`event: message\ndata: ${body}\n\n`);
    } else sendJson(res, 200, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = req.headers.host;
    if (host === undefined || !allowed.has(hostnameOf(host))) return sendError(res, 403, "Forbidden: Host header not allowed");
    const origin = req.headers.origin;
    if (origin !== undefined) {
      const name = originHost(origin);
      if (name === null || !allowed.has(name)) return sendError(res, 403, "Forbidden: Origin not allowed");
    }
    const path = (req.url ?? "").split("?")[0];
    if (path !== ENDPOINT) {
      res.writeHead(404, { "content-type": "text/plain" });
      return void res.end("Not Found\n");
    }
    // GET (standalone SSE stream) and DELETE (session end) belong to the 2025 transport; this server has neither.
    if (req.method !== "POST") return sendError(res, 405, "Method not allowed: POST only", { allow: "POST" });
    const raw = await readBody(req);
    if (raw === null) {
      sendError(res, 413, `Request body too large: limited to ${MAX_BODY_BYTES} bytes`, { connection: "close" });
      return void res.on("finish", () => req.destroy());
    }
    let value: unknown;
    try {
      value = JSON.parse(raw.toString("utf8"));
    } catch {
      return sendJson(res, 400, errorMessage(null, new RpcError(PARSE_ERROR, "Parse error: Invalid JSON")));
    }
    const inbound = classify(value);
    if (inbound.kind === "bad") return sendJson(res, 400, errorMessage(inbound.id, inbound.error));
    if (inbound.kind !== "request") {
      // Notifications (and stray responses) are accepted with no body; cancellation here is closing the stream.
      res.writeHead(202);
      return void res.end();
    }
    await serve(req, res, inbound.msg);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      log(`HTTP request failed: ${describeError(err)}`);
      if (!res.headersSent) sendError(res, 500, "Internal error");
      else res.destroy();
    });
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
  log(`listening on http://${bracket(address.address)}:${address.port}${ENDPOINT}`);
  onShutdown(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
}
