// The http part of a tool's handler module: its config literal, the compiled select, the runtime call.
import { _, code, name } from "../../shared/codegen.js";
import type { KindEmit, KindPlan } from "../types.js";
import type { HttpIRConfig } from "./normalize.js";
import { readableRequest } from "./readable.js";

export function emitHttp(plan: KindPlan<HttpIRConfig>): KindEmit {
  const c = plan.tool.config;
  const config = name("config");
  const select = c.output.select !== undefined;
  return {
    imports: { "@kervan/kinds/http": ["createHttpHandler", "checkHttpStartup", ...(select ? ["compileSelect"] : []), "type HttpToolConfig"] },
    constants: [
      {
        name: config,
        type: name("HttpToolConfig"),
        initializer: code({ tool: plan.tool.name, ...c }),
        doc: "The request this tool sends: method, fixed origin, templates by place, secrets, limits, output.",
        // The same request as the spec wrote it, for a reviewer reading the config above.
        comment: readableRequest(c),
      },
    ],
    handler: select ? _`createHttpHandler(${config}, { select: compileSelect(${config}.output.select!) })` : _`createHttpHandler(${config})`,
    startup: [_`checkHttpStartup([${config}]);`],
  };
}
