// Emits tsconfig.json beside a server's sources, so an editor (and tsc) resolves the runtime
// modules the sources import: `@kervan/runtime` and each kind's `@kervan/kinds/<key>`, mapped from
// the one declaration in generator/kinds/index.ts. For editors and type checks only: the bundler
// resolves the same modules from that declaration itself.
import type { EmittedFile } from "../model/output.js";
import type { ServerPlan } from "../model/plan.js";
import { runtimeModules } from "../kinds/index.js";

export function emitTsconfig(plan: ServerPlan): EmittedFile {
  const paths: Record<string, string[]> = {};
  for (const [specifier, file] of Object.entries(runtimeModules())) paths[specifier] = [`${plan.packageRoot}/${file}`];
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      allowJs: false,
      types: ["node"],
      typeRoots: [`${plan.packageRoot}/node_modules/@types`],
      paths,
    },
    include: ["src/**/*.ts", "src/**/*.mts"],
  };
  return { path: `${plan.dir}/tsconfig.json`, contents: `${JSON.stringify(config, null, 2)}\n` };
}
