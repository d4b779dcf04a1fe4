// The exec part of a tool's handler module: its config literal and the runtime call.
import type { ToolPlan } from "../../model/plan.js";
import { code } from "../../emit/literal.js";
import type { KindEmit } from "../types.js";

export function emitExec(plan: ToolPlan): KindEmit {
  return {
    imports: {
      "@kervan/kinds/exec": ["createExecHandler", "checkExecStartup", "EXEC_OUTPUT_SCHEMA", "type ExecToolConfig"],
      "@kervan/runtime": ["onShutdown"],
    },
    constants: [
      {
        name: "config",
        type: "ExecToolConfig",
        initializer: code({ tool: plan.tool.name, ...(plan.tool.config as object) }),
        doc: "What this tool runs: argv templates, environment, limits and filesystem policy.",
      },
    ],
    // Running process groups are killed when the server stops (signal or stdin EOF).
    handler: "createExecHandler(config, { onShutdown })",
    startup: ["checkExecStartup(config);"],
    // Every exec tool answers in the same shape, defined once in the exec runtime.
    schemaRefs: { output: "EXEC_OUTPUT_SCHEMA" },
  };
}
