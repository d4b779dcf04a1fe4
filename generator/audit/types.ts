// The manifest as plain data: what kervan.manifest.json holds and what AUDIT.md and the
// changelog are rendered from. Older manifests may lack the optional fields.
import type { Json } from "../../templates/runtime/types.js";
import type { AskIR, Effects } from "../model/ir.js";

export type { Effects };

export interface ManifestTool {
  name: string;
  title?: string;
  kind: string;
  description?: string;
  annotations: Record<string, boolean>;
  inputSchema?: Record<string, Json>;
  inputSchemaSha256: string;
  outputSchema?: Record<string, Json>;
  outputSchemaSha256?: string;
  maxOutputChars: number;
  /** OAuth scopes needed to see and call the tool over authorized HTTP. */
  scopes?: string[];
  /** Runs as a task for clients that declare the tasks extension ("required": only for them). */
  task?: "optional" | "required";
  /** Asks the user before anything runs, with this message; `fields`: inputs its form shows, which the user may change. */
  confirm?: { message: string; inputKey?: string; fields?: string[] };
  /**
   * Inputs asked for when the caller leaves them out, in spec order: from the user (elicitation form,
   * schema is the form's), the client's model (from: sampling; message is the prompt) or its roots.
   * optional: a client without the capability is served without the input.
   */
  ask?: AskIR[];
  /** A task-augmented call asks before the task is created. */
  questions?: "before-task" | "one-at-a-time";
  /** Its kind's normalized config, as plain data. */
  config?: unknown;
  /** What the tool reaches and changes (older manifests lack it: see legacy.ts). */
  effects?: Effects;
  /** Its kind's facts, for AUDIT.md. */
  facts?: Record<string, Json>;
  /** Under server.exposure: catalog: how a caller reaches it. */
  reachedThrough?: "call_operation" | "tools/list and call_operation" | "execute" | "tools/list and execute";
  /** Tokens (o200k_base) of its tools/list descriptor: its listing cost as a flat tool, or what describe_operation shows. */
  descriptorTokens?: number;
}

/** A prompt as the manifest records it: its definition, so the changelog can compare versions. */
export interface ManifestPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
  /** Arguments the user is asked for when the caller leaves them out. */
  ask?: { field: string; message: string; inputKey?: string }[];
  messages: { role: string; content: Json }[];
}

/** A static resource as the manifest records it: what it serves, by size and hash (its bytes are in the bundle). */
export interface ManifestResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  /** How resources/read carries it: `text`, or `blob` (base64). */
  encoding: "text" | "blob";
  bytes: number;
  sha256: string;
  /** `file <path>` (relative to the spec's folder) or `inline text`. */
  source: string;
}

/** A resource template as the manifest records it: what it serves and the tool (with its reach) a read runs. */
export interface ManifestResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType: string;
  variables: string[];
  tool: string;
  /** The tool's commands and hosts (its effects): what a read reaches. */
  commands: string[];
  hosts: string[];
  /** How each completing variable completes (fixed values, or a tool's output lines). */
  complete?: Record<string, string>;
}

/** Everything the server as a whole can reach, aggregated from the tools' facts. */
export interface Capabilities {
  commands: string[];
  hosts: string[];
  /** Environment variables read from the server's environment (secrets included). */
  env: string[];
  secrets: string[];
  /** Filesystem roots path arguments may resolve into. */
  pathRoots: string[];
  /** Tools whose command is a shell. */
  shellTools: string[];
}

/** Where task-augmented calls are kept (server.tasks, defaults filled). */
export interface TasksFacts {
  store: "memory" | "file" | "redis";
  ttlMs: number;
  pollIntervalMs: number;
  /** The spec's caps, when it gives them (the runtime's defaults otherwise). */
  maxPerPrincipal?: number;
  maxTasks?: number;
  maxResultBytes?: number;
}

import type { BundledPackage } from "../model/output.js";
import type { CodeFacts } from "../catalog/code-facts.js";

export type { CodeFacts };
export type { BundledPackage };

export interface Manifest {
  generator: { name: string; version: string };
  server: { name: string; version: string; title?: string; instructions?: string; http?: Json; telemetry?: string; tasks?: TasksFacts; exposure?: "catalog" | "code"; budget?: number; code?: CodeFacts };
  /** What tools/list costs, in tokens (absent in manifests from before it was counted). */
  listing?: { encoding: string; total: number; tools: Record<string, number> };
  inputs: Record<string, string>;
  /** The generator's fingerprint with the input files' hashes: lets an unchanged spec skip every stage. */
  sourceHash: string;
  inputHash: string;
  capabilities?: Capabilities;
  tools: ManifestTool[];
  /** Absent when the server has no prompts (and in manifests from before prompts). */
  prompts?: ManifestPrompt[];
  /** Absent when the server has no resources (and in manifests from before resources). */
  resources?: ManifestResource[];
  /** Absent when the server has no resource templates (and in manifests from before them). */
  resourceTemplates?: ManifestResourceTemplate[];
  /** Prompt arguments that complete, by prompt and argument; absent when none does. */
  promptCompletions?: Record<string, Record<string, string>>;
  /** chunks: a catalog's chunk files beside the bundle, loaded on first use (path -> sha256). */
  bundle: { path: string; sha256: string; chunks?: Record<string, string>; packages: Record<string, BundledPackage | string> };
  outputs?: Record<string, string>;
}

