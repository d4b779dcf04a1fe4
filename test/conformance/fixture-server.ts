// Conformance fixture: a tools-only server defining the tools the official conformance scenarios call.
// Stand-in until a generated server from a conformance spec replaces it (see run.mjs getServerBundle).
import { runServer, type ServerDef, type ToolDef, type ToolOutcome, type Validator } from "@kervan/runtime";

/** The scenarios only list or call these tools without arguments; validation is exercised in test/runtime. */
const anyObject: Validator = Object.assign((data: unknown) => typeof data === "object" && data !== null && !Array.isArray(data), { errors: null });

// 1x1 red PNG and a tiny WAV, as the scenarios suggest.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

function tool(name: string, description: string, handler: () => ToolOutcome, inputSchema: Record<string, unknown> = { type: "object" }): ToolDef {
  return { name, description, inputSchema, validateInput: anyObject, maxOutputChars: 100_000, handler: async () => handler() };
}

const tools: ToolDef[] = [
  tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features", () => ({ text: "ok" }), {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    $defs: { address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
    properties: {
      name: { type: "string" },
      address: { $ref: "#/$defs/address" },
      contactMethod: { type: "string", enum: ["phone", "email"] },
      phone: { type: "string" },
      email: { type: "string" },
    },
    allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
    if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
    then: { required: ["phone"] },
    else: { required: ["email"] },
    additionalProperties: false,
  }),
  tool("test_audio_content", "Returns audio content", () => ({ content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] })),
  tool("test_embedded_resource", "Returns an embedded resource", () => ({
    content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
  })),
  tool("test_error_handling", "Always fails", () => ({ isError: true, text: "This tool intentionally returns an error for testing" })),
  tool("test_header_param", "Mirrors its region argument into the Mcp-Param-Region header", () => ({ text: "ok" }), {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" } },
    required: ["region"],
  }),
  tool("test_image_content", "Returns image content", () => ({ content: [{ type: "image", data: PNG, mimeType: "image/png" }] })),
  // Kervan servers never log to the client and never send server-to-client requests; these two prove it.
  tool("test_logging_tool", "Answers without emitting log notifications", () => ({ text: "done, nothing logged" })),
  tool("test_multiple_content_types", "Returns text, image and resource content", () => ({
    text: "Multiple content types test:",
    content: [
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' } },
    ],
  })),
  tool("test_simple_text", "Returns simple text", () => ({ text: "This is a simple text response for testing." })),
  {
    ...tool("test_tool_with_progress", "Reports progress 0, 50, 100 of 100", () => ({ text: "" })),
    handler: async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        ctx.progress?.(step, 100);
        if (step < 100) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return { text: "Progress complete" };
    },
  },
  tool("test_streaming_elicitation", "Answers on its response stream without any server-to-client request", () => ({ text: "no elicitation needed" })),
];

const def: ServerDef = { name: "kervan-conformance-fixture", version: "0.1.0", tools };

runServer(def);
