// The output of the normalize stage: one ServerIR per server, defaults filled, order fixed.
import type { Json } from "../../templates/runtime/types.js";

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

export interface ToolIR {
  name: string;
  title?: string;
  description: string;
  annotations: AnnotationsIR;
  inputSchema: Record<string, Json>;
  outputSchema?: Record<string, Json>;
  maxOutputChars: number;
  /** The tool kind's name (a folder under generator/kinds and templates/kinds). */
  kind: string;
  /** Kind-specific plain data the kind's emitter turns into its runtime config. */
  config: Json;
  origin: Origin;
}

export interface ServerIR {
  name: string;
  version: string;
  title?: string;
  instructions?: string;
  maxOutputChars: number;
  /** Sorted by name. */
  tools: ToolIR[];
  origin: Origin;
  /** Input files and their sha256, for the manifest and the cache. */
  inputs: Record<string, string>;
}
