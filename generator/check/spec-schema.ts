// kervan.schema.json: the spec format's own JSON Schema, composed from the common part and
// each kind's fragment. Editors use it for completion (yaml-language-server); `check` uses it first.
import type { Json } from "../../templates/runtime/types.js";
import { allKinds } from "../kinds/index.js";
import { httpSchema, SCOPES_SCHEMA } from "./server-http-schema.js";

export const NAME_PATTERN = "^[A-Za-z0-9_.-]{1,128}$";
/** A prompt argument's name: what a `{placeholder}` can name. */
export const ARG_PATTERN = "^[A-Za-z_][A-Za-z0-9_-]{0,63}$";
export const SERVER_NAME_PATTERN = "^[a-z0-9][a-z0-9._-]{0,63}$";

/** A question to the user (confirm, or one ask entry): its message, alone or with the input request's id (and more keys of its own). */
function question(inputKeyDescription: string, own: Record<string, Json> = {}): Json[] {
  return [
    { type: "string", minLength: 1 },
    {
      type: "object",
      additionalProperties: false,
      required: ["message"],
      properties: {
        message: { type: "string", minLength: 1 },
        inputKey: { type: "string", pattern: "^[A-Za-z0-9_.-]{1,64}$", description: inputKeyDescription },
        ...own,
      },
    },
  ];
}

/** The inputs a confirmation's form shows beside its tick box, for the user to review and change. */
const CONFIRM_FIELDS: Json = {
  type: "array",
  items: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" },
  minItems: 1,
  maxItems: 20,
  uniqueItems: true,
  description: "Input properties the confirmation form also shows (the caller's value as each field's default); the user's answers replace those arguments before the call runs, validated like the rest.",
};

/** A prompt: its arguments (strings), the arguments asked of the user when left out, and its message templates. */
function promptSchema(asked: Json[]): Json {
  const template = (what: string): Json => ({ type: "string", description: `${what}: {argument} is the argument's value as given, {{ and }} are literal braces.` });
  return {
    type: "object",
    additionalProperties: false,
    required: ["name", "messages"],
    properties: {
      name: { type: "string", pattern: NAME_PATTERN, description: "Prompt name: 1-128 of A-Z a-z 0-9 _ . -" },
      title: { type: "string", minLength: 1 },
      description: { type: "string", minLength: 1, description: "What the prompt is for." },
      arguments: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          required: ["name"],
          properties: {
            name: { type: "string", pattern: ARG_PATTERN },
            description: { type: "string", minLength: 1 },
            required: { type: "boolean", description: "The caller must give it (default false)." },
            complete: { $ref: "#/$defs/completion" },
          },
        },
      },
      ask: {
        type: "object",
        description: "Arguments to ask the user for (form elicitation) when the caller leaves them out: argument -> question, or {message, inputKey}. Each names an optional argument.",
        propertyNames: { pattern: ARG_PATTERN },
        minProperties: 1,
        additionalProperties: { oneOf: asked },
      },
      messages: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["role"],
          description: "One message: its role and exactly one of text, resource or image.",
          properties: {
            role: { enum: ["user", "assistant"] },
            text: template("The message text"),
            resource: {
              type: "object",
              additionalProperties: false,
              required: ["uri", "text"],
              description: "An embedded text resource.",
              properties: { uri: template("The resource's URI"), mimeType: { type: "string", minLength: 1 }, text: template("The resource's text") },
            },
            image: { type: "string", pattern: "^@.", description: "@path/to/image (PNG, JPEG, GIF or WebP, at most 1 MiB, inside the spec's folder), read at build time." },
          },
        },
      },
    },
  };
}

const ASK_KEY = { type: "string", pattern: "^[A-Za-z0-9_.-]{1,64}$", description: "The id of the input request that asks it (default: the field's name)." };
const ASK_OPTIONAL = { type: "boolean", description: "When the client cannot answer this kind of request (it did not declare the capability), run without the input instead of refusing the call (-32021 / a tool error)." };

/** One `ask` entry: a question to the user, a sampling prompt, or the client's roots. */
function askEntry(): Json[] {
  const entry = (required: string, own: Record<string, Json>): Json => ({
    type: "object",
    additionalProperties: false,
    required: [required],
    properties: { ...own, inputKey: ASK_KEY, optional: ASK_OPTIONAL },
  });
  return [
    { type: "string", minLength: 1 },
    entry("message", { message: { type: "string", minLength: 1, description: "The question (form elicitation); {field} shows another input, quoted." } }),
    entry("sample", {
      sample: { type: "string", minLength: 1, description: "A prompt for the client's model (sampling/createMessage); {field} shows another input, quoted. The input takes the answer's text." },
      maxTokens: { type: "integer", minimum: 1, maximum: 100000, description: "The most tokens the model may produce (1000)." },
      systemPrompt: { type: "string", minLength: 1, description: "The system prompt of the sampling request." },
    }),
    entry("roots", { roots: { const: true, description: "Ask the client for its roots (roots/list): the input takes the first root's path, or its file:// URI when the property has format: uri." } }),
  ];
}

export function specSchema(): Record<string, Json> {
  const kindProps: Record<string, Json> = {};
  const extraProps: Record<string, Json> = {};
  const serverProps: Record<string, Json> = {};
  for (const kind of allKinds()) {
    kindProps[kind.key] = kind.schema;
    Object.assign(extraProps, kind.toolProperties ?? {});
    Object.assign(serverProps, kind.serverProperties ?? {});
  }
  const bool = (description: string): Json => ({ type: "boolean", description });
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Kervan spec",
    description: "One MCP server: its identity and its tools. `kervan gen` turns it into out/<server>/server.mjs.",
    type: "object",
    additionalProperties: false,
    required: ["server", "tools"],
    properties: {
      server: {
        type: "object",
        additionalProperties: false,
        required: ["name", "version"],
        properties: {
          name: { type: "string", pattern: SERVER_NAME_PATTERN, description: "Lower-case server name; also its folder under out/." },
          version: { type: "string", minLength: 1, description: "The server's version, reported to clients." },
          title: { type: "string", description: "Display name." },
          instructions: { type: "string", description: "Guidance for the model on using this server's tools." },
          maxOutputChars: { type: "integer", minimum: 100, description: "Default cap on a tool's text output (20000)." },
          http: httpSchema(),
          ...serverProps,
          exposure: { enum: ["tools", "catalog", "code"], description: "tools (default): tools/list lists every tool. catalog: it lists search_operations, describe_operation and call_operation (and tools with `expose: always`); every tool stays reachable through them, with its own schema, scopes and confirmation (docs/catalog.md). code: it lists search_operations, describe_operation (TypeScript declarations) and execute, which runs a JavaScript program that calls the operations in a QuickJS sandbox (docs/code-mode.md)." },
          code: codeSchema(),
          budget: { type: "integer", minimum: 1, description: "The most tokens (o200k_base, an estimate) the tools/list listing may cost; the lint warns past it (KV613)." },
          telemetry: { enum: ["otlp", "none"], description: "`otlp`: OpenTelemetry spans and the mcp.server.operation.duration metric over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (the SDK is bundled only then)." },
          tasks: {
            type: "object",
            additionalProperties: false,
            description: "How task-augmented calls (tools with `task:`) are kept.",
            properties: {
              store: { enum: ["memory", "file", "redis"], description: "memory (default): this process only; file: KERVAN_TASKS_DIR, one server process; redis: KERVAN_TASKS_REDIS_URL, shared by replicas." },
              ttlMs: { type: "integer", minimum: 1000, description: "How long a task stays readable after it starts (3600000)." },
              pollIntervalMs: { type: "integer", minimum: 50, description: "The polling interval suggested to clients (1000)." },
              maxPerPrincipal: { type: "integer", minimum: 1, description: "Tasks one principal may keep at once, finished ones included until they expire (100; KERVAN_TASKS_MAX_PER_PRINCIPAL)." },
              maxTasks: { type: "integer", minimum: 1, description: "Tasks the store keeps at once, for every principal together (1000; KERVAN_TASKS_MAX)." },
              maxResultBytes: { type: "integer", minimum: 1024, description: "Largest task result the store keeps, in bytes of JSON; a larger one fails the task (262144; KERVAN_TASKS_MAX_RESULT_BYTES)." },
            },
          },
        },
      },
      tools: { type: "array", minItems: 1, items: { $ref: "#/$defs/tool" } },
      prompts: { type: "array", minItems: 1, items: { $ref: "#/$defs/prompt" }, description: "MCP prompts: message templates a user picks in the client, filled from their arguments." },
      resources: { type: "array", minItems: 1, items: { $ref: "#/$defs/resource" }, description: "MCP resources, static: a file in the spec's folder or inline text, read at build time; they never change." },
      resourceTemplates: { type: "array", minItems: 1, items: { $ref: "#/$defs/resourceTemplate" }, description: "MCP resource templates: RFC 6570 level 1-2 URI templates, each read by one of the spec's exec or http tools with the URI's variables as its arguments." },
    },
    $defs: {
      completion: {
        description: "completion/complete candidates: a fixed list, or {tool} whose output lines are the candidates (it runs with the typed value under the argument's name). The ones starting with the typed value are offered.",
        oneOf: [
          { type: "array", minItems: 1, maxItems: 1000, uniqueItems: true, items: { type: "string", minLength: 1, maxLength: 1024 } },
          { type: "object", additionalProperties: false, required: ["tool"], properties: { tool: { type: "string", pattern: NAME_PATTERN, description: "An exec or http tool of this spec." } } },
        ],
      },
      resourceTemplate: {
        type: "object",
        additionalProperties: false,
        required: ["uriTemplate", "name", "mimeType", "tool"],
        properties: {
          uriTemplate: { type: "string", minLength: 1, maxLength: 2048, description: "An RFC 6570 level 1-2 template of an absolute URI: {var} (one segment, percent-encoded), {+var} (reserved characters such as / kept) or {#var}." },
          name: { type: "string", minLength: 1, maxLength: 128 },
          title: { type: "string", minLength: 1 },
          description: { type: "string", minLength: 1 },
          mimeType: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$", description: "type/subtype of what the tool's text is." },
          tool: { type: "string", pattern: NAME_PATTERN, description: "The exec or http tool of this spec a read runs: each URI variable is the argument of the same name." },
          complete: { type: "object", propertyNames: { pattern: "^[A-Za-z0-9_]{1,64}$" }, minProperties: 1, additionalProperties: { $ref: "#/$defs/completion" }, description: "completion/complete per variable (an input with an enum completes from it without this)." },
        },
      },
      resource: {
        type: "object",
        additionalProperties: false,
        required: ["uri", "name", "mimeType"],
        properties: {
          uri: { type: "string", minLength: 1, maxLength: 2048, description: "The resource's absolute URI (scheme:...), unique in the server." },
          name: { type: "string", minLength: 1, maxLength: 128 },
          title: { type: "string", minLength: 1 },
          description: { type: "string", minLength: 1 },
          mimeType: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$", description: "type/subtype. text/*, JSON, XML, YAML and JavaScript types are served as text (the file must be UTF-8), any other as a base64 blob." },
          file: { type: "string", minLength: 1, description: "A file relative to the spec's folder (inside it), at most 1 MiB; its sha256 is an input of the build." },
          text: { type: "string", description: "The content, inline." },
        },
      },
      prompt: promptSchema(question("The id of the input request that asks it (default: the argument's name).")),
      tool: {
        type: "object",
        additionalProperties: false,
        required: ["name"],
        properties: {
          name: { type: "string", pattern: NAME_PATTERN, description: "Tool name: 1-128 of A-Z a-z 0-9 _ . -" },
          title: { type: "string" },
          description: { type: "string", minLength: 1, description: "What the tool does, first; then when to use it." },
          annotations: {
            type: "object",
            additionalProperties: false,
            properties: {
              readOnlyHint: bool("The tool does not change its environment."),
              destructiveHint: bool("The tool may destroy or overwrite data."),
              idempotentHint: bool("Calling again with the same arguments has no further effect."),
              openWorldHint: bool("The tool reaches things outside a closed set (network, the wide filesystem)."),
            },
          },
          input: { type: ["object", "string"], pattern: "^@", description: "JSON Schema 2020-12 of the arguments, or @path/to/schema.json." },
          maxOutputChars: { type: "integer", minimum: 100, description: "Cap on this tool's text output." },
          scopes: { ...SCOPES_SCHEMA, description: "OAuth scopes a caller must hold (all of them) to see and call this tool over authorized HTTP." },
          task: {
            enum: ["optional", "required", "forbidden"],
            description: "Tasks extension: optional runs as a task for clients that declare it; required refuses others (-32021); forbidden (default) never.",
          },
          confirm: {
            description: "Ask the user before anything runs: a message with {field} placeholders (quoted and escaped), or {message, inputKey, fields}.",
            oneOf: question("The id of the confirmation's input request (confirm).", { fields: CONFIRM_FIELDS }),
          },
          ask: {
            type: "object",
            description: "Inputs asked for when the caller leaves them out: field -> a question to the user (form elicitation; a string or {message}), {sample} (the client's model answers the prompt) or {roots: true} (the client's first root). Each names an optional input property of a primitive type (a string for sample and roots).",
            propertyNames: { pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" },
            minProperties: 1,
            additionalProperties: { oneOf: askEntry() },
          },
          questions: {
            enum: ["in-task", "before-task", "one-at-a-time"],
            description: "Where a task-augmented call asks its questions (ask, confirm): inside the task (in-task, default; the task waits input_required) or before the task is created (before-task, a multi round-trip request); or one-at-a-time: each asked input in its own round, in the order of ask.",
          },
          expose: { const: "always", description: "Under server.exposure: catalog, list this tool in tools/list beside the catalog tools." },
          tags: { type: "array", items: { type: "string", minLength: 1, maxLength: 64 }, maxItems: 20, description: "Words the catalog's search_operations finds the tool by (an imported operation's tags)." },
          ...extraProps,
          ...kindProps,
        },
      },
    },
  };
}

/** server.code: the limits of one `execute` under exposure: code (templates/runtime/codemode/limits.ts has the defaults). */
function codeSchema(): Json {
  const n = (minimum: number, maximum: number, description: string) => ({ type: "integer", minimum, maximum, description });
  return {
    type: "object",
    additionalProperties: false,
    description: "Limits of one execute program under server.exposure: code (docs/code-mode.md).",
    properties: {
      cpuMs: n(10, 60_000, "Engine time of one program, ms (1000)."),
      wallMs: n(100, 600_000, "Time from start to answer, inner calls included, ms (30000)."),
      memoryBytes: n(1_048_576, 1_073_741_824, "The engine's memory limit for one program (33554432)."),
      stackBytes: n(65_536, 4_194_304, "The engine's stack limit (262144)."),
      calls: n(1, 10_000, "Inner calls one program may make (50)."),
      consoleBytes: n(0, 10_485_760, "Bytes of console.log output kept (16384)."),
      resultBytes: n(16, 10_485_760, "Bytes of the program's result as JSON (65536)."),
      argumentBytes: n(16, 10_485_760, "Bytes of one inner call's arguments as JSON (262144)."),
      concurrent: n(1, 64, "Programs running at once in the server (4)."),
      queue: n(0, 1024, "Programs waiting for a turn before execute answers busy (16)."),
    },
  };
}
