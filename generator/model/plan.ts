// The output of the plan stage: every path and identifier decided once.
import type { ServerIR, ToolIR } from "./ir.js";

export interface ToolPlan {
  tool: ToolIR;
  /** Path of the handler module relative to the server folder, e.g. src/tools/read_file.ts. */
  file: string;
  /** Import specifier used by the entry, e.g. ./tools/read_file.js. */
  importPath: string;
  /** Identifier stem for this tool (types, validators), unique within the server. */
  ident: string;
  inputType: string;
  outputType?: string;
  validateInput: string;
  validateOutput?: string;
}

export interface ServerPlan {
  server: ServerIR;
  /** Folder of the server relative to the output root: the server name. */
  dir: string;
  /** The project root (whose node_modules holds Kervan, or this repository) relative to the server's folder, with forward slashes. */
  packageRoot: string;
  tools: ToolPlan[];
}

export interface EmitPlan {
  servers: ServerPlan[];
}
