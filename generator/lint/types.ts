// The tool-definition lint: deterministic checks modelled on the public Tool Definition Quality
// Score (TDQS). Rules see each tool as an MCP client would list it, plus where it came from.
import type { Json } from "../../templates/runtime/types.js";
import type { AnnotationsIR, Effects, ServerIR, ToolIR } from "../model/ir.js";
import type { LoadedSpec } from "../model/spec.js";
import type { RawTool } from "../kinds/types.js";

export interface LintTool {
  name: string;
  title?: string;
  /** As the spec gives it (or the built-in's own); undefined when the spec gives none. */
  description?: string;
  /** Whether the spec (or the built-in) states annotations, rather than leaving the kind's defaults. */
  annotationsGiven: boolean;
  annotations: AnnotationsIR;
  inputSchema: Record<string, Json>;
  outputSchema?: Record<string, Json>;
  kind: string;
  /** A built-in kind brings its own definition; the spec cannot change its wording. */
  builtin: boolean;
  /** The tool entry as written: common properties only (a kind's own block is read through `effects`). */
  raw: RawTool;
  ir: ToolIR;
  /** What the tool reaches and changes, from its kind. */
  effects: Effects;
  /** Pointer of the tool entry in the spec, e.g. /tools/2. */
  pointer: string;
}

export interface LintServer {
  spec: LoadedSpec;
  server: ServerIR;
  /** In spec order. */
  tools: LintTool[];
}

export type Report = (message: string, pointer: string, extra?: { atKey?: boolean; suggestion?: string; notes?: string[] }) => void;

export interface ToolRule {
  code: string;
  /** One line for docs and `--help`: what the rule asks for. */
  summary: string;
  tool(t: LintTool, s: LintServer, report: Report): void;
}

export interface ServerRule {
  code: string;
  summary: string;
  server(s: LintServer, report: Report): void;
}

export type Rule = ToolRule | ServerRule;
