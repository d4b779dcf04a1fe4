// The exec part of a tool's handler module: its config literal and the runtime call.
import { _, code, name } from "../../shared/codegen.js";
import type { KindEmit, KindPlan } from "../types.js";
import type { ExecIRConfig } from "./normalize.js";

export function emitExec(plan: KindPlan<ExecIRConfig>): KindEmit {
  const config = name("config");
  return {
    imports: {
      "@kervan/kinds/exec": ["createExecHandler", "checkExecStartup", "EXEC_OUTPUT_SCHEMA", "type ExecToolConfig"],
      "@kervan/runtime": ["onShutdown"],
    },
    constants: [
      {
        name: config,
        type: name("ExecToolConfig"),
        initializer: code({ tool: plan.tool.name, ...plan.tool.config }),
        doc: "What this tool runs: argv templates, environment, limits and filesystem policy.",
      },
    ],
    // Running process groups are killed when the server stops (signal or stdin EOF).
    handler: _`createExecHandler(${config}, { onShutdown })`,
    startup: [_`checkExecStartup(${config});`],
    // Every exec tool answers in the same shape, defined once in the exec runtime.
    schemaRefs: { output: name("EXEC_OUTPUT_SCHEMA") },
  };
}
