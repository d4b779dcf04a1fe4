// The seam every tool kind plugs into: one typed definition, `defineKind<Block, Config, Facts>({...})`.
// A kind is one folder here and one runtime folder (templates/kinds/<key>); the stages only see
// this interface, and a kind's functions see its own typed block and config, never another kind's.
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Json } from "../../templates/runtime/types.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";
import type { AnnotationsIR, Effects, ToolOf } from "../model/ir.js";
import type { ToolPlan } from "../model/plan.js";
import type { Code, Name } from "../shared/codegen.js";
import type { CodeGroup } from "../shared/codes.js";
import { isObject } from "../shared/object.js";

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
export interface KindNormalized<Config> {
  inputSchema: Record<string, Json>;
  outputSchema?: Record<string, Json>;
  config: Config;
  /** Defaults for this kind; the spec's own annotations override them. */
  annotations: AnnotationsIR;
  /** Used when the spec gives none (builtins). */
  name?: string;
  title?: string;
  description?: string;
}

/** The plan of one tool of this kind, as its emitter sees it. */
export type KindPlan<Config> = Omit<ToolPlan, "tool"> & { tool: ToolOf<Config> };

/** What a kind contributes to its tool's handler module, as code values; the common emitter assembles it. */
export interface KindEmit {
  /** Named imports: module specifier -> names (a name may be "type X"). */
  imports: Record<string, string[]>;
  /** `export const NAME: TYPE = INITIALIZER;` statements, in order. */
  constants: { name: Name; type?: Code; initializer: Code; doc?: string; comment?: string[] }[];
  /** Expression of type ToolHandler. */
  handler: Code;
  /** Optional statements run at server startup (they throw StartupError on bad configuration). */
  startup?: Code[];
  /**
   * The same start-up checks from a literal of only what they read, with their imports: run by the
   * entry of a catalog whose operations load on first use (emit/lazy.ts), before any module is loaded.
   * A kind with startup checks but without this keeps its tools loaded at start. `reads`: what the
   * checks read apart from the tool's name; of tools whose checks read the same, the entry runs only the
   * first one's (the first a failure would stop at), so a large catalog does not check one setting per tool.
   */
  startupHead?: { imports: Record<string, string[]>; statements: Code[]; reads?: string };
  /**
   * Expressions naming schemas the kind's runtime already exports (exec's fixed result schema,
   * validate_json's definition), used instead of printing the same literal into every module.
   */
  schemaRefs?: { input?: Code; output?: Code };
  /** Worker roles this kind runs inside the bundle (name of an imported function returning boolean). */
  workerRole?: Name;
}

/** Plain-data facts a kind reports about one tool, for the manifest and AUDIT.md. */
export type FactsShape = Record<string, Json>;

/** What a kind's author writes: the functions read the kind's own block, typed by `Block`. */
export interface KindDefinition<Block, Config, Facts extends FactsShape> {
  /** The tool-entry key that selects this kind; also its folder name here and under templates/kinds. */
  key: string;
  /** JSON Schema of the value under `key` (part of kervan.schema.json); `Block` is its type. */
  schema: Record<string, Json>;
  /** The codes its rules report (a heading of docs/diagnostics.md for a registered kind). */
  codes: CodeGroup;
  /** The page (with its section, `file#anchor`) that documents the kind, its spec key and each of its codes. */
  docs: string;
  /** Extra tool-level properties this kind accepts, e.g. http's `output`. */
  toolProperties?: Record<string, Record<string, Json>>;
  /** Server-level properties this kind accepts: server-wide defaults for its tools (exec's `sandbox`). */
  serverProperties?: Record<string, Record<string, Json>>;
  /** Whether the spec must give a description (builtins bring their own). */
  needsDescription: boolean;
  /** A built-in tool brings its own name, description, schemas and annotations (the lint skips its wording). */
  builtin?: boolean;
  /**
   * Whether its tools may run as tasks and ask for confirmation (`task:`, `confirm:`): they do work
   * that takes time or changes things. A built-in that answers at once takes neither.
   */
  tasks: boolean;
  /** A tool's argument names when the spec gives no input schema (exec: its argv placeholders). */
  impliedInputs?(tool: RawTool): string[] | undefined;
  /**
   * Present when its tools may back resource templates and completions (they fetch or print content).
   * `textFrom`: the structured value's string property that holds the content (exec: stdout); absent:
   * the result's text.
   */
  resourceReads?: { textFrom?: string };
  /**
   * Its runtime module: the folder (relative to the package root) that emitted code imports as
   * `@kervan/kinds/<key>`, and the npm packages it bundles (part of the generator's fingerprint).
   * `startup`: a file of that folder with only the start-up check, imported as `@kervan/startup/<key>`
   * by an entry whose tools load later (startupHead), so the start path parses none of the handler.
   */
  runtime: { dir: string; packages?: string[]; startup?: string };
  /** The kind's rules: `block` is the tool's value under `key`, already valid against `schema`. */
  check(block: Block, tool: RawTool, ctx: RuleContext): void;
  normalize(block: Block, tool: RawTool, ctx: RuleContext): KindNormalized<Config>;
  emit(plan: KindPlan<Config>): KindEmit;
  /** What it reaches and changes; the audit, manifest, changelog and lint read only this. */
  effects(tool: ToolOf<Config>): Effects;
  /** Kind-specific facts for the manifest and AUDIT.md (what it runs or sends, its limits). */
  facts(tool: ToolOf<Config>): Facts;
  /** AUDIT.md's label of every fact, in the order a reviewer reads them. */
  factLabels: { [K in keyof Facts]-?: string };
  /** A fact rendered for AUDIT.md (markdown), when the generic rendering would not read well. */
  renderFact?(key: keyof Facts & string, value: Json): string | undefined;
}

/** A kind as the stages hold it: its definition plus the one narrowing of a tool to its block. */
export interface ToolKind<Block, Config, Facts extends FactsShape> extends KindDefinition<Block, Config, Facts> {
  /** The tool's block, checked against `schema` (the spec-shape check has reported any fault). */
  blockOf(tool: RawTool): Block;
}

/** A kind of any config, as the registry and the stages hold it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyKind = ToolKind<any, any, any>;

/**
 * The schema with every `additionalProperties: false` dropped: an unknown property is reported
 * (KV201) without keeping the kind's rules from the rest of the block, and a block type names the
 * properties a kind reads, which an extra one leaves as they are.
 */
function opened(schema: Record<string, Json>): Record<string, Json> {
  const open = (v: Json): Json => (Array.isArray(v) ? v.map(open) : isObject(v) ? opened(v) : v);
  return Object.fromEntries(Object.entries(schema).filter(([k, v]) => !(k === "additionalProperties" && v === false)).map(([k, v]) => [k, open(v)]));
}

/**
 * Declares a kind; the type parameters tie its functions to its block, config and facts. The block
 * reaches them through a guard compiled from `schema` itself (on first use), so the type a kind
 * declares for its block is the type of what its schema accepts, and no kind casts its block.
 */
export function defineKind<Block, Config, Facts extends FactsShape>(kind: KindDefinition<Block, Config, Facts>): ToolKind<Block, Config, Facts> {
  let isBlock: ((value: unknown) => value is Block) | undefined;
  return {
    ...kind,
    blockOf(tool) {
      // The schema is the generator's own, checked against the meta-schema as part of kervan.schema.json
      // (test/kinds/schemas-valid.test.ts): compiling the meta-schema again for each guard would double its cost.
      isBlock ??= new Ajv2020({ strict: false, validateSchema: false }).compile<Block>(opened(kind.schema));
      const block = tool[kind.key];
      if (!isBlock(block)) throw new Error(`the ${kind.key} block of a tool reached its kind unchecked`);
      return block;
    },
  };
}

/** An Effects value with nothing reached; kinds spread it and set what they do. */
export const NO_EFFECTS: Effects = Object.freeze({
  commands: [],
  hosts: [],
  env: [],
  secrets: [],
  shell: false,
  filesystem: false,
  network: false,
  pathRoots: [],
  pathDenied: [],
}) as Effects;
