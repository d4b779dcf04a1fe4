// The runtime's telemetry seam: what dispatch reports per request. The OpenTelemetry implementation lives in
// telemetry/otlp.ts and is bundled only into servers whose spec says `server.telemetry: otlp`.

export interface RequestInfo {
  /** JSON-RPC method (mcp.method.name). */
  method: string;
  /** The tool of a tools/call, when this server has it (gen_ai.tool.name). */
  tool?: string;
  id: string | number;
  /** The protocol revision the request is served with (mcp.protocol.version). */
  version?: string;
  /** network.transport: "pipe" for stdio, "tcp" for Streamable HTTP. */
  transport: "pipe" | "tcp";
  /** The request's params._meta: carries W3C trace context (traceparent, tracestate). */
  meta?: Record<string, unknown>;
}

export interface RequestOutcome {
  /** error.type: the JSON-RPC error code, or "tool_error" for a tool result with isError. */
  errorType?: string;
  /** rpc.response.status_code: the JSON-RPC error code. */
  rpcCode?: number;
}

export interface Telemetry {
  /** Starts a request's span and timer; the returned function ends them. */
  begin(info: RequestInfo): (outcome: RequestOutcome) => void;
  /** Flushes what is buffered; called on shutdown. */
  shutdown(): Promise<void>;
}

export type TelemetryFactory = (server: { name: string; version: string }) => Telemetry;
