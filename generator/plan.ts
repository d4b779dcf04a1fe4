// plan: every output path and identifier decided once, collisions resolved here so emitters only look up.
import type { ServerIR } from "./model/ir.js";
import type { EmitPlan, ServerPlan, ToolPlan } from "./model/plan.js";
import { ident, typeName } from "./shared/codegen.js";

function unique(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base}_${i}`;
  taken.add(name.toLowerCase()); // case-insensitive: file names must not collide on macOS/Windows
  return name;
}

export function planServer(server: ServerIR): ServerPlan {
  const files = new Set<string>();
  const types = new Set<string>();
  const tools = server.tools.map((tool): ToolPlan => {
    const stem = unique(ident(tool.name).toString(), files);
    const type = unique(typeName(tool.name).toString(), types);
    return {
      tool,
      file: `src/tools/${stem}.ts`,
      importPath: `./tools/${stem}.js`,
      ident: stem,
      inputType: `${type}Input`,
      ...(tool.outputSchema ? { outputType: `${type}Output` } : {}),
      validateInput: `validate_${stem}_input`,
      ...(tool.outputSchema ? { validateOutput: `validate_${stem}_output` } : {}),
    };
  });
  return { server, dir: server.name, tools };
}

export function plan(servers: ServerIR[]): EmitPlan {
  return { servers: servers.map(planServer) };
}
