// The contract between the hand-written runtime and the code the generator emits.
// Per-server data reaches the runtime only as values of these types (no templating of user text).

import type { AuthDef } from "./auth/types.js";
import type { Telemetry, TelemetryFactory } from "./telemetry-hook.js";
import type { CatalogIndex } from "./catalog/types.js";
import type { CodeLimits } from "./codemode/limits.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The error objects ajv's standalone validators report. */
export interface ValidationError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** An ajv standalone validator (precompiled at build time). */
export type Validator = ((data: unknown) => boolean) & { errors?: ValidationError[] | null };

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type Era = "2026-07-28" | "2025-11-25";

/** An MCP content block passed through as-is (image, audio, resource, resource_link, text). */
export type ContentBlock = { type: string; [key: string]: Json | undefined };

/** What a tool handler returns; the runtime turns it into a CallToolResult for the caller's era. */
export interface ToolOutcome {
  /** A failure the model should read and act on (isError: true). */
  isError?: boolean;
  /** Readable text for content[0]. When absent, the JSON text of `value` is used. */
  text?: string;
  /** The structured value: structuredContent when the tool has an output schema. */
  value?: Json;
  /**
   * Further content blocks (image, audio, resource ...) returned after the text block. When neither
   * `text` nor `value` is given, the result carries only these blocks.
   */
  content?: ContentBlock[];
}

/** Where a call's AbortSignal comes from, read only when something needs it (a CallHandle, an AbortController). */
export interface SignalSource {
  readonly signal: AbortSignal;
}

export interface CallContext {
  /** Aborted when the client cancels, the connection closes or the server shuts down. */
  signal: AbortSignal;
  era: Era;
  /**
   * Reports progress to the caller when it asked for it (a progressToken in the request's _meta);
   * otherwise absent. Values should increase; the runtime drops ones that do not.
   */
  progress?: (progress: number, total?: number, message?: string) => void;
  /** The serving server's name and version (for a User-Agent, say); absent outside a server. */
  server?: { name: string; version: string };
}

export type ToolHandler = (args: Record<string, unknown>, ctx: CallContext) => Promise<ToolOutcome>;

export interface ToolDef {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** Precompiled; runs before the handler. A failure is a readable tool error and the handler never runs. */
  validateInput: Validator;
  /** Precompiled; a value that fails it is a tool error that says so. */
  validateOutput?: Validator;
  /** Text content is cut here with a visible marker. */
  maxOutputChars: number;
  /** OAuth scopes a caller must hold (all of them) to see and call this tool over authorized HTTP. */
  scopes?: string[];
  handler: ToolHandler;
  /**
   * Task support (tasks extension): "optional" runs as a task for clients that declare the extension,
   * "required" refuses clients that do not (-32021). Absent: never a task.
   */
  task?: "optional" | "required";
  /** Asks the human before anything runs: the message, with {field} placeholders filled from the arguments. */
  confirm?: ConfirmDef;
  /** Inputs the user is asked for (a form elicitation each) when the caller leaves them out. */
  ask?: AskDef[];
  /** For a task-augmented call: ask before the task is created (MRTR) instead of inside it. */
  questions?: "before-task" | "one-at-a-time";
  /** Set on the catalog tools (server.exposure: catalog; see catalog/tools.ts), which the core serves itself. */
  catalog?: "search" | "describe" | "call" | "execute";
  /** Set on an operation of a large catalog until its module is loaded (catalog/lazy.ts): loads it in place. */
  load?: () => Promise<void>;
}

export interface AskDef {
  /** The input property the answer fills (also the input request's id unless inputKey is given). */
  field: string;
  /** The id of the input request that asks it (default: the field's name). */
  inputKey?: string;
  /**
   * The question (elicitation) or the prompt (sampling); `{field}` renders another argument quoted and
   * escaped. Empty for roots.
   */
  message: string;
  /** The property's schema as the elicitation form carries it (a primitive: string, number, integer, boolean). */
  schema: Record<string, unknown>;
  /**
   * Who answers: the user through a form (elicitation, the default), the client's model
   * (sampling/createMessage; the input takes the answer's text) or the client's roots (roots/list; the
   * input takes the first root's path, or its file:// URI for a `format: uri` property).
   */
  from?: "sampling" | "roots";
  /** sampling: the most tokens the model may produce. */
  maxTokens?: number;
  /** sampling: the system prompt. */
  systemPrompt?: string;
  /** The client cannot answer this kind of request (capability not declared): leave the input out and run. */
  optional?: true;
}

export interface ConfirmDef {
  /** `{field}` renders the argument quoted and escaped; `{{` and `}}` are literal braces. */
  message: string;
  /** The id of the confirmation's input request (default "confirm"). */
  inputKey?: string;
  /**
   * Inputs the form shows beside the tick box, each with the caller's value as its default; the
   * answer's values replace those arguments (then validated with the rest).
   */
  fields?: ConfirmFieldDef[];
}

export interface ConfirmFieldDef {
  field: string;
  /** The property's schema as the form carries it (form-schema rules, as for an asked input). */
  schema: Record<string, unknown>;
  /** The input schema requires it, so the form does. */
  required?: true;
}

/** One prompt argument (MCP PromptArgument): every value is a string. */
export interface PromptArgumentDef {
  name: string;
  description?: string;
  required?: boolean;
}

/**
 * A message's content: `text` (and a resource's `uri` and `text`) are templates where `{arg}` is the
 * argument's value as given and `{{`/`}}` are literal braces; an image's bytes were read at build time.
 */
export type PromptContentDef =
  | { type: "text"; text: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text: string } }
  | { type: "image"; data: string; mimeType: string };

export interface PromptDef {
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgumentDef[];
  messages: { role: "user" | "assistant"; content: PromptContentDef }[];
  /** Arguments the user is asked for (a form elicitation each) when the caller leaves them out. */
  ask?: AskDef[];
  /** completion/complete sources by argument name; absent when none of its arguments completes. */
  complete?: Record<string, CompletionDef>;
}

/**
 * Where completion/complete finds the candidates of one prompt argument or template variable: a fixed
 * list (the spec's list, or the enum of the input it fills), or the output lines of one of the
 * server's tools (its own caps bound it). The runtime keeps those that start with the typed value.
 */
export type CompletionDef = { values: string[] } | { tool: string; textFrom?: string };

/**
 * A resource template (spec `resourceTemplates:`): an RFC 6570 level 1-2 URI template whose reads run
 * one of the server's tools with the URI's variables as its arguments (its kind's templating,
 * sandbox, secrets, redaction and caps), and serve its text as the resource's content.
 */
export interface ResourceTemplateDef {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  /** The tool a read runs. */
  tool: string;
  /** The structured value's string property that holds the content (exec: stdout); absent: the result's text. */
  textFrom?: string;
  /** completion/complete sources by variable name. */
  complete?: Record<string, CompletionDef>;
}

/** The resource templates, and the URI matcher (@kervan/resource-templates) that only servers with templates bundle. */
export interface TemplatesDef {
  /** Sorted by uriTemplate by the generator. */
  list: ResourceTemplateDef[];
  /** The template's variables when `uri` is exactly one it expands to, decoded; undefined otherwise. */
  match: (uriTemplate: string, uri: string) => Record<string, string> | undefined;
}

/**
 * A static resource (spec `resources:`): its bytes were read (or its text given) at build time and
 * never change, so there is nothing to subscribe to. `text` for textual content, `blob` (base64) else.
 */
export interface ResourceDef {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  /** The content's size in bytes (UTF-8 for text). */
  size: number;
  text?: string;
  blob?: string;
}

/** One prompts/get whose prompt asks the user for arguments the caller left out. */
export interface PromptCall {
  prompt: PromptDef;
  args: Record<string, string>;
  params: Record<string, unknown> | undefined;
  era: Era;
  principal: string;
  /** 2025-11-25, for a client that declared elicitation: sends it an elicitation/create request. */
  elicit?: (params: Record<string, unknown>) => Promise<unknown>;
}

/** run: render with these arguments; else the result to answer with (a 2026-07-28 input_required round). */
export type PromptAsked = { run: true; args: Record<string, unknown> } | { run: false; result: Record<string, unknown> };

/** How task-augmented calls are kept: the store chosen in the spec, its location from the environment. */
export interface TasksDef {
  store: "memory" | "file" | "redis";
  ttlMs: number;
  pollIntervalMs: number;
  /** The spec's caps (tasks kept per principal and in all, result bytes); the runtime's defaults when absent. */
  maxPerPrincipal?: number;
  maxTasks?: number;
  maxResultBytes?: number;
  /** Opens the spec's store (file and Redis; memory needs none). Emitted only for the store chosen. */
  open?: () => Promise<import("./tasks/types.js").TaskStore>;
}

export interface ServerDef {
  name: string;
  version: string;
  title?: string;
  instructions?: string;
  /** Sorted by name by the generator. */
  tools: ToolDef[];
  /** The spec's prompts, sorted by name; absent when it has none (no prompts capability). */
  prompts?: PromptDef[];
  /** The spec's static resources, sorted by uri; absent when it has none. */
  resources?: ResourceDef[];
  /** The spec's resource templates; absent when it has none. Resources or templates: the resources capability. */
  templates?: TemplatesDef;
  /** Streamable HTTP settings from the spec (flags and environment override them at start). */
  http?: { auth?: AuthDef };
  /** OpenTelemetry (spec server.telemetry: otlp): the bundled SDK's factory; absent otherwise. */
  telemetry?: TelemetryFactory;
  /** Runs before any transport starts; throw StartupError to stop with a clear message. May be async. */
  startup?: () => void | Promise<void>;
  /**
   * The bundle is also the script of its own worker threads (validate_json's pattern matcher):
   * each role returns true when this thread is that worker and has taken it over.
   */
  workerRoles?: (() => boolean)[];
  /** Present when any tool runs as a task. */
  tasks?: TasksDef;
  /** Runs calls of tools with `task` or `confirm`; emitted only for servers that have such tools. */
  modes?: ModesFactory;
  /** server.exposure: catalog — tools/list shows the catalog tools (and `always`), every tool stays callable through them. */
  catalog?: CatalogDef;
}

/** Era-independent server state (made by core.ts createCore), which the request handlers of both eras share. */
export interface Core {
  def: ServerDef;
  tools: Map<string, ToolDef>;
  /** Every tool a call may name, sorted: the spec's, plus the catalog tools under exposure: catalog. */
  all: ToolDef[];
  /** Whether tools/list shows the tool (under exposure: catalog, the catalog tools and `expose: always` ones). */
  listed(tool: ToolDef): boolean;
  serverInfo: Record<string, string>;
  /** {name, version}, made once: the server a tool's context names. */
  serverId: { name: string; version: string };
  listTools(era: Era): Record<string, unknown>[];
  /**
   * What the server declares (DiscoverResult, initialize): exactly the primitives it serves, the same in
   * both eras; the tasks extension only in 2026-07-28, the era whose tasks methods it serves.
   */
  capabilities(era: Era): Record<string, unknown>;
  /** Set at start when the server was generated with telemetry. */
  telemetry?: Telemetry;
  /** Task-augmented and confirmed calls (set at startup for servers that have such tools). */
  modes?: Modes;
}

type Body = Record<string, unknown>;

export interface CatalogDef {
  /**
   * The catalog's search index, loaded on the first search (src/catalog.ts: under exposure: catalog its
   * own chunk file beside the bundle), so that start-up neither reads nor parses it.
   */
  loadIndex: () => Promise<CatalogIndex>;
  /** Tools listed in tools/list beside the catalog tools (`expose: always`), sorted. */
  always: string[];
  /** The catalog tools' cap on text output (the server's maxOutputChars). */
  maxOutputChars: number;
  /** The catalog tools and their serving (@kervan/catalog: catalog/tools.ts catalogTools, catalog/serve.ts serveCatalog), handed in so that flat servers never bundle them. */
  tools: (ops: ToolDef[], maxOutputChars: number) => ToolDef[];
  serve: (core: Core, tool: ToolDef, params: Body | undefined, args: Record<string, unknown>, ctx: CallContext, call: (params: Body) => Promise<Body>) => Promise<Body>;
  /** server.exposure: code — the program limits and each operation's TypeScript declaration. */
  code?: CodeDef;
}

/** What a code-mode server (server.exposure: code) hands the @kervan/codemode runtime. */
export interface CodeDef {
  limits: CodeLimits;
  /** Each operation's TypeScript declaration (json-schema-to-typescript, as src/types.ts), by name. */
  declarations: Record<string, string>;
}

/** One tools/call handed to the task/confirmation layer. */
export interface ModeCall {
  tool: ToolDef;
  args: Record<string, unknown>;
  params: Record<string, unknown> | undefined;
  ctx: CallContext;
  principal: string;
  /** 2025-11-25, on a connection that can carry requests to the client: what it declared, and how to ask it. */
  asker?: ClientAsker;
}

/** Requests to a 2025-11-25 client (elicitation/create, sampling/createMessage, roots/list). */
export interface ClientAsker {
  /** The capabilities the client declared at initialize. */
  capabilities: unknown;
  /** Sends one request and resolves with the client's result; rejects on its error or when the call ends. */
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
}

export interface Modes {
  run(call: ModeCall): Promise<Record<string, unknown>>;
  /** Asks the user for the arguments a prompt's `ask` names that the caller left out. */
  askPrompt(call: PromptCall): Promise<PromptAsked>;
  /** tasks/get, tasks/update, tasks/cancel; undefined for any other method. `mayUse`: whether the caller's token may call the named tool (its view of the server). */
  serveTaskMethod(method: string, params: Record<string, unknown> | undefined, principal: string, mayUse?: (tool: string) => boolean): Promise<Record<string, unknown> | undefined>;
  close(): Promise<void>;
}

/** Opens what the modes need (task store, state key); a StartupError stops the server with its message. */
export type ModesFactory = (def: ServerDef) => Promise<Modes>;

/** A configuration problem found at startup: printed as one line to stderr, exit code 2, no stack. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}
