// plan: every output path and identifier decided once, collisions resolved here so emitters only look up.
import type { ServerIR } from "./model/ir.js";
import type { EmitPlan, ServerPlan, ToolPlan } from "./model/plan.js";
import { join, relative, resolve, sep } from "node:path";
import { ident, typeName } from "./shared/codegen.js";
import { PROJECT_ROOT } from "./paths.js";

function unique(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base}_${i}`;
  taken.add(name.toLowerCase()); // case-insensitive: file names must not collide on macOS/Windows
  return name;
}

/** The output root's place relative to the package root, as the emitted tsconfig needs it. */
export interface PlanOptions {
  outRoot: string;
}

export function planServer(server: ServerIR, options: PlanOptions): ServerPlan {
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
  const packageRoot = relative(join(resolve(options.outRoot), server.name), PROJECT_ROOT).split(sep).join("/") || ".";
  return { server, dir: server.name, packageRoot, tools };
}

export function plan(servers: ServerIR[], options: PlanOptions): EmitPlan {
  return { servers: servers.map((s) => planServer(s, options)) };
}
