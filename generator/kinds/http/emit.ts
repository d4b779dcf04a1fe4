// The http part of a tool's handler module: its config literal, the compiled select, the runtime call.
import type { ToolPlan } from "../../model/plan.js";
import { code } from "../../emit/literal.js";
import type { KindEmit } from "../types.js";

export function emitHttp(plan: ToolPlan): KindEmit {
  const config = plan.tool.config as { output: { select?: string } };
  const select = config.output.select !== undefined;
  return {
    imports: { "@kervan/kinds/http": ["createHttpHandler", "checkHttpStartup", ...(select ? ["compileSelect"] : []), "type HttpToolConfig"] },
    constants: [
      {
        name: "config",
        type: "HttpToolConfig",
        initializer: code({ tool: plan.tool.name, ...(plan.tool.config as object) }),
        doc: "The request this tool sends: method, fixed origin, templates by place, secrets, limits, output.",
      },
    ],
    handler: select ? "createHttpHandler(config, { select: compileSelect(config.output.select!) })" : "createHttpHandler(config)",
    startup: ["checkHttpStartup([config]);"],
  };
}
