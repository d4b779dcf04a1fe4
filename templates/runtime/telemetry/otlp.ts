// OpenTelemetry for a generated server (spec `server.telemetry: otlp`): one SERVER span per request and the
// mcp.server.operation.duration histogram, named as the MCP semantic conventions name them; trace context
// taken from the request's _meta; both exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (the SDK's
// own OTEL_* variables apply).
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, type Attributes, type TextMapGetter } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import type { RequestInfo, Telemetry } from "../telemetry-hook.js";

/** Bucket boundaries the MCP semantic conventions advise for mcp.server.operation.duration (seconds). */
const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const v = carrier[key];
    return typeof v === "string" ? v : undefined;
  },
};

export function otlpTelemetry(server: { name: string; version: string }): Telemetry {
  const resource = resourceFromAttributes({ "service.name": server.name, "service.version": server.version });
  const tracerProvider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })] });
  const meterProvider = new MeterProvider({ resource, readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: 15_000 })] });
  const tracer = tracerProvider.getTracer("kervan", server.version);
  const duration = meterProvider.getMeter("kervan", server.version).createHistogram("mcp.server.operation.duration", {
    unit: "s",
    description: "MCP request duration as observed on the receiver from the time it was received until the result or ack is sent.",
    advice: { explicitBucketBoundaries: BUCKETS },
  });
  const propagator = new W3CTraceContextPropagator();

  return {
    begin(info: RequestInfo) {
      const parent = info.meta ? propagator.extract(ROOT_CONTEXT, info.meta, metaGetter) : ROOT_CONTEXT;
      const common: Attributes = { "mcp.method.name": info.method, "network.transport": info.transport };
      if (info.version) common["mcp.protocol.version"] = info.version;
      if (info.tool) {
        common["gen_ai.tool.name"] = info.tool;
        common["gen_ai.operation.name"] = "execute_tool";
      }
      const span = tracer.startSpan(info.tool ? `${info.method} ${info.tool}` : info.method, { kind: SpanKind.SERVER, attributes: { ...common, "jsonrpc.request.id": String(info.id) } }, parent);
      const start = performance.now();
      return (outcome) => {
        const attrs: Attributes = { ...common };
        if (outcome.errorType) {
          attrs["error.type"] = outcome.errorType;
          span.setAttribute("error.type", outcome.errorType);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        if (outcome.rpcCode !== undefined) {
          attrs["rpc.response.status_code"] = String(outcome.rpcCode);
          span.setAttribute("rpc.response.status_code", String(outcome.rpcCode));
        }
        span.end();
        duration.record((performance.now() - start) / 1000, attrs);
      };
    },
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
