// Emits src/validators.mjs: every input and output schema precompiled by ajv into standalone
// ESM code. Export names come from the plan, so they are stable whatever else changes.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone/index.js";
import type { ServerPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { header } from "./header.js";
import { MCP_HEADER } from "../shared/schema.js";

/**
 * ajv's ESM output still reaches its runtime helpers (ucs2length, equal, formats) with require();
 * turn those into imports so the module is plain ESM and the bundler resolves them statically.
 */
function esmOnly(code: string): string {
  const modules: string[] = [];
  const body = code.replace(/require\("([^"]+)"\)/g, (_, spec: string) => {
    if (!modules.includes(spec)) modules.push(spec);
    return `__kervan_require_${modules.indexOf(spec)}`;
  });
  const imports = modules.map((spec, i) => `import __kervan_require_${i} from ${JSON.stringify(spec.endsWith(".js") ? spec : `${spec}.js`)};`);
  return `${imports.join("\n")}${imports.length ? "\n" : ""}${body.replace(/^"use strict";\n?/, "")}`;
}

export function emitValidators(plan: ServerPlan): EmittedFile[] {
  const ajv = new Ajv2020({
    code: { source: true, esm: true, lines: true, optimize: true },
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    allErrors: true,
    verbose: false,
  });
  addFormats.default(ajv);
  ajv.addKeyword(MCP_HEADER); // an MCP annotation for clients, nothing to validate
  // ajv resolves $anchor for $ref but never registers it, so strict mode refused it in a $ref target.
  ajv.addKeyword("$anchor");
  const exports: Record<string, string> = {};
  const aliases: string[] = [];
  // Identical schemas (every exec tool's output schema, say) compile once; later names alias the first.
  const firstName = new Map<string, string>();
  const add = (name: string, schema: object) => {
    const key = JSON.stringify(schema);
    const first = firstName.get(key);
    if (first) return aliases.push(`export const ${name} = ${first};`);
    firstName.set(key, name);
    ajv.addSchema(schema, `kervan:${name}`);
    exports[name] = `kervan:${name}`;
  };
  // Added in plan order (tools sorted by name) so generated code is the same on every run.
  for (const t of plan.tools) {
    add(t.validateInput, t.tool.inputSchema);
    if (t.validateOutput && t.tool.outputSchema) add(t.validateOutput, t.tool.outputSchema);
  }
  const code = esmOnly(standaloneCode.default(ajv, exports));
  const tail = aliases.length ? `\n${aliases.join("\n")}\n` : "";
  const names = plan.tools.flatMap((t) => [t.validateInput, ...(t.validateOutput ? [t.validateOutput] : [])]);
  // Declarations, so the typed tool modules see each validator as the runtime's Validator.
  const declarations = [
    header(plan.server.origin.file).toString(),
    "",
    'import type { Validator } from "@kervan/runtime";',
    "",
    ...names.map((n) => `export declare const ${n}: Validator;`),
    "",
  ].join("\n");
  return [
    { path: `${plan.dir}/src/validators.mjs`, contents: `${header(plan.server.origin.file)}\n${code}${tail}` },
    { path: `${plan.dir}/src/validators.d.mts`, contents: declarations },
  ];
}
