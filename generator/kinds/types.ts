// The seam every tool kind plugs into. A kind is one folder here and one under templates/kinds/,
// with the same shape; the pipeline only sees this interface.
import type { Json } from "../../templates/runtime/types.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";
import type { AnnotationsIR, ToolIR } from "../model/ir.js";
import type { ToolPlan } from "../model/plan.js";

/** A tool entry as written in the spec (already checked against kervan.schema.json). */
export type RawTool = Record<string, Json>;

export interface RuleContext {
  spec: LoadedSpec;
  /** Pointer of the tool entry, e.g. /tools/3. */
  pointer: string;
  /** Reports an error (or warning) at a pointer inside the spec. */
  report(code: string, message: string, pointer: string, extra?: Partial<Pick<Diagnostic, "severity" | "notes" | "suggestion">> & { atKey?: boolean }): void;
}

/** What a kind decides when normalizing one tool. */
export interface KindNormalized {
  inputSchema: Record<string, Json>;
  outputSchema?: Record<string, Json>;
  config: Json;
  /** Defaults for this kind; the spec's own annotations override them. */
  annotations: AnnotationsIR;
  /** Used when the spec gives none (builtins). */
  name?: string;
  title?: string;
  description?: string;
}

/** What a kind contributes to its tool's handler module; the common emitter assembles it. */
export interface KindEmit {
  /** Named imports: module specifier -> names (a name may be "type X"). */
  imports: Record<string, string[]>;
  /** `export const NAME: TYPE = INITIALIZER;` statements, in order. Initializers are built with literal(). */
  constants: { name: string; type?: string; initializer: string; doc?: string }[];
  /** Expression of type ToolHandler. */
  handler: string;
  /** Optional statements run at server startup (they throw StartupError on bad configuration). */
  startup?: string[];
  /**
   * Expressions naming schemas the kind's runtime already exports (exec's fixed result schema,
   * validate_json's definition), used instead of printing the same literal into every module.
   */
  schemaRefs?: { input?: string; output?: string };
  /** Worker roles this kind runs inside the bundle (name of an imported function returning boolean). */
  workerRole?: string;
}

export interface ToolKind {
  /** The tool-entry key that selects this kind; also its folder name. */
  key: string;
  /** JSON Schema of the value under `key` (part of kervan.schema.json). */
  schema: Record<string, Json>;
  /** Extra tool-level properties this kind accepts, e.g. http's `output`. */
  toolProperties?: Record<string, Record<string, Json>>;
  /** Whether the spec must give a description (builtins bring their own). */
  needsDescription: boolean;
  /** A built-in tool brings its own name, description, schemas and annotations (the lint skips its wording). */
  builtin?: boolean;
  check(tool: RawTool, ctx: RuleContext): void;
  normalize(tool: RawTool, ctx: RuleContext): KindNormalized;
  emit(plan: ToolPlan): KindEmit;
  /**
   * Runtime-facing facts for the manifest and AUDIT.md. Plain data; the audit aggregates these keys
   * server-wide: `command` (string), `host` (string), `env` (variables read from the server's
   * environment), `secrets` (the subset of env that holds secrets), `shell` (boolean),
   * `paths.allow` (filesystem roots), `limits` (object).
   */
  facts?(tool: ToolIR): Record<string, Json>;
}
