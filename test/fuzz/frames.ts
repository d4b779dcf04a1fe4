// Arbitrary JSON-RPC frames as text: well-formed requests of every method both eras serve, odd ids,
// params and _meta, tools/call arguments for validate_json, values nested thousands deep, and frames
// cut, spliced or replaced by garbage. expectedId says which id must be answered exactly once.
import fc from "fast-check";
import { documentArb, schemaArb } from "./schemas.js";

export const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

const METHODS = [
  "tools/list", "tools/call", "server/discover", "initialize", "ping", "resources/list", "resources/read", "resources/templates/list",
  "prompts/list", "prompts/get", "notifications/cancelled", "notifications/initialized", "logging/setLevel", "completion/complete", "",
];
const VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "1900-01-01", ""];
const DEEP = "\u0000DEEP\u0000";

const meta = fc.oneof(
  fc.constant(MODERN_META),
  fc.record({ "io.modelcontextprotocol/protocolVersion": fc.constantFrom(...VERSIONS), "io.modelcontextprotocol/clientCapabilities": fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 1 })) }),
  fc.record({ ...{ "io.modelcontextprotocol/protocolVersion": fc.constant("2026-07-28"), "io.modelcontextprotocol/clientCapabilities": fc.constant({}) }, progressToken: fc.oneof(fc.integer(), fc.string({ maxLength: 5 })) }),
  fc.jsonValue({ maxDepth: 2 }),
);

const args = fc.oneof(
  fc.record({ output: documentArb, schema: schemaArb }),
  fc.record({ output: fc.jsonValue({ maxDepth: 2 }), schema: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
  fc.jsonValue({ maxDepth: 3 }),
);

const params = fc.oneof(
  fc.record(
    {
      _meta: meta,
      name: fc.oneof(fc.constant("validate_json"), fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 })),
      arguments: args,
      cursor: fc.oneof(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), fc.constant(DEEP)),
      uri: fc.oneof(fc.string({ maxLength: 10 }), fc.constant(DEEP)),
      protocolVersion: fc.constantFrom(...VERSIONS),
      requestId: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.string({ maxLength: 3 })),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

const ID_ABSENT = Symbol("absent");
const id = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -5, max: 1_000_000 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  fc.constant(null),
  fc.double(),
  fc.constant(ID_ABSENT),
  fc.jsonValue({ maxDepth: 1 }),
);

const request = fc
  .record({
    jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant("2.0") }, fc.constantFrom("1.0", 2, null)),
    id,
    method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...METHODS) }, fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })),
    params: fc.option(params, { nil: undefined }),
    deepAt: fc.option(fc.integer({ min: 100, max: 6000 }), { nil: undefined, freq: 8 }),
    extra: fc.option(fc.record({ result: fc.jsonValue({ maxDepth: 1 }) }), { nil: undefined, freq: 10 }),
  })
  .map(({ jsonrpc, id, method, params, deepAt, extra }) => {
    const frame: Record<string, unknown> = { jsonrpc, method, ...extra };
    if (id !== ID_ABSENT) frame.id = id;
    if (params !== undefined) frame.params = params;
    let text = JSON.stringify(frame);
    const depth = deepAt ?? 5000;
    text = text.split(JSON.stringify(DEEP)).join("[".repeat(depth) + "]".repeat(depth));
    return text;
  });

const mutated = fc.tuple(request, fc.nat(), fc.constantFrom("cut", "splice", "double")).map(([text, at, how]) => {
  const i = at % (text.length + 1);
  if (how === "cut") return text.slice(0, i);
  if (how === "splice") return text.slice(0, i) + "\u00ff{[\"" + text.slice(i);
  return text + text;
});

/** One frame as text, without raw line breaks (stdio frames are lines). */
export const frameArb: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 10, arbitrary: request },
    { weight: 2, arbitrary: mutated },
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 40 }),
  )
  .map((t) => t.replace(/[\r\n]/g, " "));

/**
 * The id this frame must be answered with exactly once, or undefined when it need not be answered
 * with its own id (unreadable frames are answered with id null at most once; notifications and
 * client responses are not answered).
 */
export function expectedId(text: string): string | number | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const m = v as Record<string, unknown>;
  if (!("id" in m)) return undefined;
  // Integers beyond 2^53 lost digits in JSON.parse: the server refuses them, with an id-less error.
  const valid = typeof m.id === "string" || (typeof m.id === "number" && Number.isSafeInteger(m.id));
  if (!valid) return undefined;
  if (typeof m.method !== "string" && ("result" in m || "error" in m)) return undefined; // a client response
  return m.id as string | number;
}

/** tools/call frames for the given tools, with arguments from each tool's arbitrary or anything at all. */
export function toolCallFrameArb(tools: [name: string, args: fc.Arbitrary<unknown>][]): fc.Arbitrary<string> {
  const call = fc
    .record({
      id: fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.string({ maxLength: 6 })),
      tool: fc.oneof(...tools.map(([name, args]) => fc.record({ name: fc.constant(name), arguments: fc.oneof({ weight: 4, arbitrary: args }, fc.jsonValue({ maxDepth: 2 })) }))),
      meta: fc.oneof({ weight: 5, arbitrary: fc.constant(MODERN_META) }, fc.constant({ ...MODERN_META, progressToken: 7 })),
    })
    .map(({ id, tool, meta }) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { ...tool, _meta: meta } }));
  return fc.oneof({ weight: 6, arbitrary: call }, frameArb);
}
