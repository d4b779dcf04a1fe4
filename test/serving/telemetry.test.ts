// OpenTelemetry, opt-in per spec: spans and the mcp.server.operation.duration metric reach a real local
// OTLP/HTTP collector with the MCP semantic-convention names, under the trace context the request's _meta
// carried; a server whose spec does not ask bundles no OpenTelemetry at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { startHttpServer, type HttpServer } from "../helpers/client.js";
import { generateFixture } from "./generate.js";
import { rpc, rpcRequest, httpRequest } from "./wire.js";

interface Received {
  path: string;
  body: any;
}
let collector: Server;
const received: Received[] = [];
let endpoint: string;
let server: HttpServer;

beforeAll(async () => {
  collector = createServer((req, res) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: JSON.parse(data) });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r));
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  server = await startHttpServer(generateFixture("telemetry"), [], { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await new Promise((r) => collector.close(r));
});

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";

function attrs(list: { key: string; value: Record<string, unknown> }[]): Record<string, unknown> {
  return Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));
}

describe("server.telemetry: otlp", () => {
  it("exports a span per request with MCP names, parented by the _meta trace context, and the duration metric", async () => {
    const meta = { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` };
    const ok = rpcRequest("2026-07-28", 1, "tools/call", { name: "validate_json", arguments: { output: "{}", schema: { type: "object" } } });
    const body = JSON.parse(ok.body);
    body.params._meta = { ...body.params._meta, ...meta };
    expect((await httpRequest(server.url, { method: "POST", headers: ok.headers, body: JSON.stringify(body) })).status).toBe(200);
    const bad = await rpc(server.url, "2025-11-25", "req-2", "tools/call", { name: "validate_json", arguments: {}, _meta: meta });
    expect(bad.json.result.isError).toBe(true);
    await rpc(server.url, "2026-07-28", 3, "tools/list");
    // Shutdown flushes the batch and the metric reader.
    expect(await server.stop("SIGTERM")).toBe(0);

    const spans = received.filter((r) => r.path === "/v1/traces").flatMap((r) => r.body.resourceSpans.flatMap((rs: any) => rs.scopeSpans.flatMap((ss: any) => ss.spans)));
    const byName = (name: string) => spans.filter((s: any) => s.name === name);
    expect(spans.map((s: any) => s.name).sort()).toEqual(["tools/call validate_json", "tools/call validate_json", "tools/list"]);
    const [first, second] = byName("tools/call validate_json").sort((a: any, b: any) => (attrs(a.attributes)["jsonrpc.request.id"] === "1" ? -1 : 1));
    expect(first.kind).toBe(2); // SPAN_KIND_SERVER
    expect(first.traceId).toBe(TRACE_ID);
    expect(first.parentSpanId).toBe(PARENT_ID);
    expect(attrs(first.attributes)).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "validate_json",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2026-07-28",
      "jsonrpc.request.id": "1",
      "network.transport": "tcp",
    });
    expect(attrs(first.attributes)["error.type"]).toBeUndefined();
    expect(attrs(second.attributes)).toMatchObject({ "error.type": "tool_error", "mcp.protocol.version": "2025-11-25", "jsonrpc.request.id": "req-2" });
    const list = byName("tools/list")[0];
    expect(list.parentSpanId ?? "").toBe("");

    const metrics = received.filter((r) => r.path === "/v1/metrics").flatMap((r) => r.body.resourceMetrics.flatMap((rm: any) => rm.scopeMetrics.flatMap((sm: any) => sm.metrics)));
    const histogram = metrics.find((m: any) => m.name === "mcp.server.operation.duration");
    expect(histogram.unit).toBe("s");
    const points = histogram.histogram.dataPoints;
    expect(points.reduce((n: number, p: any) => n + Number(p.count), 0)).toBe(3);
    expect(points.map((p: any) => attrs(p.attributes)["error.type"]).filter(Boolean)).toEqual(["tool_error"]);
    const resource = received.find((r) => r.path === "/v1/traces")!.body.resourceSpans[0].resource;
    expect(attrs(resource.attributes)["service.name"]).toBe("telemetry-fixture");
  });

  it("is bundled, and listed in AUDIT.md, only where the spec asks", () => {
    const withOtel = readFileSync(generateFixture("telemetry").replace("server.mjs", "AUDIT.md"), "utf8");
    expect(withOtel).toMatch(/\| @opentelemetry\/sdk-trace \|/);
    const without = readFileSync(generateFixture("serving"), "utf8");
    expect(without).not.toContain("@opentelemetry");
    expect(readFileSync("out/validator/server.mjs", "utf8")).not.toContain("opentelemetry");
  });
});
