// JSON-RPC frames over Streamable HTTP against a real generated server (out/validator): every POST
// gets one answer below 500; a request with an id is answered with that id (never 202), a JSON body
// is a well-formed JSON-RPC message, no internal errors, and a sentinel request still succeeds.
import fc from "fast-check";
import { frameArb, expectedId, MODERN_META } from "../frames.js";
import { FuzzFailure, internalToolText, wellFormedResponse, withinOrHang, type FuzzProperty } from "../property.js";
import { startHttp, type HttpServer } from "../servers.js";

const HANG_MS = 15_000;

interface Input {
  frame: string;
  /** Which request headers go out: the ones the body implies, none, or odd ones. */
  headers: "matching" | "none" | "odd";
  contentType: string;
  accept: string;
}

const inputArb: fc.Arbitrary<Input> = fc.record({
  frame: frameArb,
  headers: fc.constantFrom("matching", "matching", "matching", "none", "odd"),
  contentType: fc.constantFrom("application/json", "application/json", "application/json; charset=utf-8", "text/plain"),
  accept: fc.constantFrom("application/json, text/event-stream", "text/event-stream", "application/json"),
});

/** The headers a 2026-07-28 client would send for this body (MCP-Protocol-Version, Mcp-Method, Mcp-Name). */
function impliedHeaders(frame: string): Record<string, string> {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(frame);
  } catch {
    return {};
  }
  if (typeof v !== "object" || v === null) return {};
  const out: Record<string, string> = {};
  const params = (typeof v.params === "object" && v.params !== null ? v.params : {}) as Record<string, unknown>;
  const meta = params._meta as Record<string, unknown> | undefined;
  const version = meta && typeof meta === "object" ? meta["io.modelcontextprotocol/protocolVersion"] : undefined;
  const plain = (s: unknown): s is string => typeof s === "string" && /^[\x20-\x7e]*$/.test(s);
  if (plain(version)) out["mcp-protocol-version"] = version;
  if (plain(v.method)) out["mcp-method"] = v.method;
  const name = v.method === "resources/read" ? params.uri : params.name;
  if (plain(name)) out["mcp-name"] = name;
  return out;
}

/** The JSON-RPC messages of a response body: one JSON document, or the data lines of an SSE stream. */
function messages(body: string, type: string): unknown[] {
  if (body === "") return [];
  const texts = type.startsWith("text/event-stream")
    ? body.split("\n\n").filter((e) => e.trim() !== "").map((e) => e.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n"))
    : [body];
  return texts.map((t) => {
    try {
      return JSON.parse(t);
    } catch {
      throw new FuzzFailure("malformed", `a response body that is not JSON (${type}): ${t.slice(0, 200)}`);
    }
  });
}

export const property: FuzzProperty<Input, HttpServer> = {
  name: "JSON-RPC frames over Streamable HTTP (out/validator)",
  seed: 8_2026_28,
  numRuns: 300,
  testMs: 3000,
  arbitrary: inputArb,
  setup: () => startHttp(),
  async check(server, input) {
    const headers: Record<string, string> = { "content-type": input.contentType, accept: input.accept };
    if (input.headers === "matching") Object.assign(headers, impliedHeaders(input.frame));
    if (input.headers === "odd") Object.assign(headers, { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list", "mcp-name": "=?base64?x?=" });
    const res = await withinOrHang(server.post(input.frame, headers), HANG_MS, "POST");
    if (res.status >= 500) throw new FuzzFailure("internal", `HTTP ${res.status}: ${res.body.slice(0, 300)}`);
    const want = expectedId(input.frame);
    const msgs = messages(res.body, res.type);
    if (res.status === 202 && want !== undefined) throw new FuzzFailure("malformed", `202 for a request with id ${JSON.stringify(want)}`);
    const answers = msgs.filter((m) => !(typeof (m as Record<string, unknown>).method === "string" && !("id" in (m as object))));
    if (res.status !== 202 && answers.length !== 1) throw new FuzzFailure("malformed", `HTTP ${res.status} with ${answers.length} answers`);
    for (const msg of answers) {
      const m = msg as Record<string, unknown>;
      if (!("id" in m) && "error" in m && res.status >= 400) continue; // a transport-level rejection (403/415/413) carries no id
      const id = wellFormedResponse(msg, `HTTP ${res.status}`);
      const tool = internalToolText(m);
      if (tool) throw new FuzzFailure("internal", `a tool fault instead of an answer: ${tool.slice(0, 300)}`);
      if (want !== undefined && id !== want && res.status < 400) throw new FuzzFailure("malformed", `answered id ${JSON.stringify(id)}, sent ${JSON.stringify(want)}`);
    }
    const sentinel = JSON.stringify({ jsonrpc: "2.0", id: "~sentinel", method: "tools/list", params: { _meta: MODERN_META } });
    const ok = await withinOrHang(
      server.post(sentinel, { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" }),
      HANG_MS,
      "sentinel",
    );
    if (ok.status !== 200) throw new FuzzFailure("crash", `the sentinel got HTTP ${ok.status}: ${ok.body.slice(0, 200)}`);
  },
  teardown: (server) => server.stop(),
  pids: (server) => (server.proc.pid ? [server.proc.pid] : []),
};
