// The http part of a tool's handler module: its config literal, the compiled select, the runtime call.
import { _, code, join, literal, name } from "../../shared/codegen.js";
import type { KindEmit, KindPlan } from "../types.js";
import type { HttpIRConfig } from "./normalize.js";
import { readableRequest } from "./readable.js";
import { nullPlan } from "../../../templates/kinds/http/nulls.js";

export function emitHttp(plan: KindPlan<HttpIRConfig>): KindEmit {
  const c = plan.tool.config;
  const config = name("config");
  const select = c.output.select !== undefined;
  // Optional output members whose null the schema does not allow are dropped per call (nulls.ts).
  const nulls = !c.output.raw && !c.output.resource && !c.output.link ? nullPlan(plan.tool.outputSchema) : undefined;
  // What the start-up check reads: the same for every tool of one origin, override and secrets.
  const reads = { origin: c.origin, basePath: c.basePath, ...(c.originEnv !== undefined ? { originEnv: c.originEnv } : {}), secrets: c.secrets };
  const deps = [...(select ? [_`select: compileSelect(${config}.output.select!)`] : []), ...(nulls ? [_`nulls: ${code(nulls)}`] : [])];
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
    handler: deps.length ? _`createHttpHandler(${config}, { ${join(deps, ", ")} })` : _`createHttpHandler(${config})`,
    startup: [_`checkHttpStartup([${config}]);`],
    startupHead: {
      imports: { "@kervan/startup/http": ["checkHttpStartup"] },
      statements: [_`checkHttpStartup([${literal({ tool: plan.tool.name, ...reads })}]);`],
      reads: `http ${JSON.stringify(reads)}`,
    },
  };
}
