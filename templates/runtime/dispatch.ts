// One era dispatch for both transports: picks 2025-11-25 or 2026-07-28 semantics for a request, checks
// the modern _meta (and, on HTTP, the request headers), runs the method and turns any failure into
// a JSON-RPC error. The transports only decide whether a request arrives in the legacy era.
import { isObject, RpcError, toRpcError, type JsonRpcRequest, type Reply } from "./jsonrpc.js";
import { isLegacyVersion, LATEST_LEGACY, META_PROTOCOL_VERSION, requireMeta, requireSupported } from "./protocol.js";
import { serveLegacy } from "./legacy.js";
import { serveModern } from "./modern.js";
import { describeError, log } from "./log.js";
import type { Core, Notify } from "./core.js";
import { callTarget } from "./call-target.js";
import type { ClientAsker, SignalSource } from "./types.js";

export interface Route {
  /** True when the transport has placed this request in the initialize era (no modern _meta). */
  legacy: boolean;
  /** Transport checks run once the requested version is known (Streamable HTTP header validation). */
  checkModern?: (requested: string) => void;
  /** The version the transport names apart from the body (Streamable HTTP: the MCP-Protocol-Version header). */
  declaredVersion?: string;
  /** network.transport for telemetry (default "pipe"). */
  transport?: "pipe" | "tcp";
  /**
   * Who is asking: tasks belong to it and confirmation state is bound to it. stdio: the one client of
   * the process; HTTP: the token's subject where auth is on, else the client's address.
   */
  principal?: string;
  /**
   * tools/list depends on who asks (auth is on and some tool needs scopes): its cache hint is "private",
   * so no shared cache hands one principal's list to another.
   */
  privateTools?: boolean;
  /** 2025-11-25: asks the client (elicitation, sampling, roots) where the connection can carry requests to it. */
  asker?: ClientAsker;
}

/** Dispatch, reported to the server's telemetry when it has one (a span and a duration per request). */
export function dispatch(core: Core, msg: JsonRpcRequest, route: Route, signal: SignalSource, notify?: Notify): Promise<Reply> {
  // Without telemetry the request's own promise is the answer (no extra async step per request).
  return core.telemetry ? observed(core, msg, route, signal, notify) : run(core, msg, route, signal, notify);
}

async function observed(core: Core, msg: JsonRpcRequest, route: Route, signal: SignalSource, notify?: Notify): Promise<Reply> {
  const meta = isObject(msg.params?._meta) ? msg.params._meta : undefined;
  const name = msg.params?.name;
  const end = core.telemetry!.begin({
    method: msg.method,
    ...(msg.method === "tools/call" && typeof name === "string" && core.tools.has(name) ? { tool: callTarget(core, msg.params)! } : {}),
    id: msg.id,
    version: route.legacy ? LATEST_LEGACY : typeof meta?.[META_PROTOCOL_VERSION] === "string" ? (meta[META_PROTOCOL_VERSION] as string) : undefined,
    transport: route.transport ?? "pipe",
    ...(meta ? { meta } : {}),
  });
  const reply = await run(core, msg, route, signal, notify);
  if ("error" in reply) end({ errorType: String(reply.error.code), rpcCode: reply.error.code });
  else end((reply.result as { isError?: unknown }).isError === true ? { errorType: "tool_error" } : {});
  return reply;
}

async function run(core: Core, msg: JsonRpcRequest, route: Route, signal: SignalSource, notify?: Notify): Promise<Reply> {
  const { method, params } = msg;
  try {
    if (route.legacy) return { result: await serveLegacy(core, method, params, signal, notify, route.principal, route.asker) };
    const requested = requireMeta(params, route.declaredVersion); // -32602 before header checks: a missing _meta is not a header problem
    route.checkModern?.(requested);
    requireSupported(requested);
    const result = isLegacyVersion(requested)
      ? await serveLegacy(core, method, params, signal, notify, route.principal, route.asker)
      : await serveModern(core, method, params, signal, notify, route.principal, route.privateTools);
    return { result };
  } catch (err) {
    if (!(err instanceof RpcError)) log(`request ${method} failed: ${describeError(err)}`);
    return { error: toRpcError(err) };
  }
}
