// The output of the normalize stage: one ServerIR per server, defaults filled, order fixed.
import type { CompletionDef, Json, PromptContentDef, ResourceDef, ResourceTemplateDef } from "../../templates/runtime/types.js";
import type { AuthDef } from "../../templates/runtime/auth/types.js";

export interface Origin {
  file: string;
  pointer: string;
}

export interface AnnotationsIR {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * Each kind's normalized config, by kind name. A kind adds its entry from its own folder
 * (`declare module ".../model/ir.js" { interface KindConfigs { exec: ExecIRConfig } }`), and the
 * registry in generator/kinds/index.ts must list a definition for every entry, or it does not compile.
 */
export interface KindConfigs {}

export type KindName = keyof KindConfigs;

/** What every tool has, whatever its kind. */
export interface ToolIRBase {
  name: string;
  title?: string;
  description: string;
  annotations: AnnotationsIR;
  inputSchema: Record<string, Json>;
  outputSchema?: Record<string, Json>;
  maxOutputChars: number;
  /** Scopes a caller must hold to see and call the tool over authorized HTTP (sorted, unique). */
  scopes?: string[];
  /** Runs as a task for clients that declare the tasks extension (absent: never). */
  task?: "optional" | "required";
  /** Asks the user to confirm before it runs. */
  confirm?: ConfirmIR;
  /**
   * Inputs asked for when the caller leaves them out, in spec order: from the user (elicitation form,
   * schema is the form's), the client's model (from: sampling; message is the prompt) or its roots.
   * optional: a client without the capability is served without the input.
   */
  ask?: AskIR[];
  /** A task-augmented call asks before the task is created (absent: inside the task). */
  questions?: "before-task" | "one-at-a-time";
  /** Under server.exposure: catalog, listed in tools/list beside the catalog tools. */
  expose?: "always";
  /** Words the catalog's search finds the tool by (e.g. an imported operation's tags), in spec order. */
  tags?: string[];
  origin: Origin;
}

/** A tool of a kind whose config is `C` (what a kind's own functions see). */
export interface ToolOf<C, K extends string = string> extends ToolIRBase {
  /** The tool kind's name (a folder under generator/kinds and templates/kinds). */
  kind: K;
  /** Kind-specific plain data the kind's emitter turns into its runtime config. */
  config: C;
}

/** A normalized tool: `config` is typed by `kind` (narrow on `t.kind` to read it). */
export type ToolIR = { [K in KindName]: ToolOf<KindConfigs[K], K> }[KindName];

/**
 * What a tool can reach and change, in one shape for every kind. The audit, the manifest's
 * capabilities, the changelog's breaking-change rules and the lint read these, never a kind's spec.
 */
export interface Effects {
  /** Commands it runs (as written in the spec). */
  commands: string[];
  /** Hosts it contacts (host[:port]). */
  hosts: string[];
  /** Environment variables it reads from the server's environment, secrets included. */
  env: string[];
  /** The variables among `env` that hold secrets. */
  secrets: string[];
  /** It runs a shell, or an interpreter on an inline script (sh -c, python -c, node -e). */
  shell: boolean;
  /** It may read or write the filesystem beyond the server's own files. */
  filesystem: boolean;
  /** It may reach the network. */
  network: boolean;
  /** Roots that path arguments may resolve into, and paths denied under them. */
  pathRoots: string[];
  pathDenied: string[];
  /** What it visibly changes, as a phrase after "the tool", e.g. "sends POST", "runs rm". */
  changes?: string;
  /** Why it visibly changes nothing, as a phrase after "the tool", e.g. "only sends GET". */
  readsOnly?: string;
  /**
   * Set when the operating system confines the tool (exec under its sandbox): the roots it sees
   * and may write, whatever its arguments. Absent: it reaches what the server's user reaches.
   */
  confined?: { by: string; visible: string[]; writable: string[]; runLaterWritable?: string[] };
}

/** A prompt (spec `prompts:`), in the runtime's shape plus where it came from. */
export interface PromptIR {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
  messages: { role: "user" | "assistant"; content: PromptContentDef }[];
  /** Arguments asked of the user when the caller leaves them out, in spec order; schema is the form's. */
  ask?: { field: string; message: string; schema: Record<string, Json>; inputKey?: string }[];
  /** completion/complete sources by argument name. */
  complete?: Record<string, CompletionDef>;
  origin: Origin;
}

/** A resource template (spec `resourceTemplates:`), in the runtime's shape plus its variables and origin. */
export interface ResourceTemplateIR extends ResourceTemplateDef {
  /** The URI template's variables, in order: the arguments of its tool. */
  variables: string[];
  origin: Origin;
}

/** A static resource (spec `resources:`), in the runtime's shape plus its hash, source and origin. */
export interface ResourceIR extends ResourceDef {
  /** sha256 of the content's bytes (the file's, or the inline text's UTF-8). */
  sha256: string;
  /** The file it serves (relative to the spec's folder), or inline text. */
  source: { file: string } | { inline: true };
  origin: Origin;
}

export interface ServerIR {
  name: string;
  version: string;
  title?: string;
  instructions?: string;
  maxOutputChars: number;
  /** Streamable HTTP settings (server.http), defaults filled. */
  http?: { auth?: AuthDef };
  /** OpenTelemetry export (server.telemetry); absent: none, and no SDK in the bundle. */
  telemetry?: "otlp";
  /** Present when any tool runs as a task. */
  /** The caps are set only when the spec gives them (the runtime's defaults otherwise). */
  tasks?: { store: "memory" | "file" | "redis"; ttlMs: number; pollIntervalMs: number; maxPerPrincipal?: number; maxTasks?: number; maxResultBytes?: number };
  /** catalog: tools/list shows search/describe/call tools; every tool is reached through them (absent: tools). */
  exposure?: "catalog" | "code";
  /** Under exposure: code, the limits of one execute program, every key made explicit. */
  code?: import("../../templates/runtime/codemode/limits.js").CodeLimits;
  /** The most tokens the tools/list listing may cost (server.budget); the lint warns past it. */
  budget?: number;
  /** Sorted by name. */
  tools: ToolIR[];
  /** Sorted by name; absent when the spec has none. */
  prompts?: PromptIR[];
  /** Sorted by uri; absent when the spec has none. */
  resources?: ResourceIR[];
  /** Sorted by uriTemplate; absent when the spec has none. */
  resourceTemplates?: ResourceTemplateIR[];
  origin: Origin;
  /** Input files and their sha256, for the manifest and the cache. */
  inputs: Record<string, string>;
}

/** One asked input (ask:). */
/** A confirmation: its message, its input request id, and the inputs its form shows for review. */
export interface ConfirmIR {
  message: string;
  inputKey?: string;
  /** In spec order; each field's schema is the input property's, cut to what a form carries. */
  fields?: ConfirmFieldIR[];
}

export interface ConfirmFieldIR {
  field: string;
  schema: Record<string, Json>;
  /** The input schema requires it: the form requires it too. */
  required?: true;
}

export interface AskIR {
  field: string;
  message: string;
  schema: Record<string, Json>;
  inputKey?: string;
  from?: "sampling" | "roots";
  maxTokens?: number;
  systemPrompt?: string;
  optional?: true;
}
