// Emits src/validators.mjs: every input and output schema precompiled by ajv into standalone
// ESM code. Export names come from the plan, so they are stable whatever else changes.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone/index.js";
import type { ServerPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { header } from "./header.js";
import { MCP_HEADER, ENUM_NAMES } from "../shared/schema.js";
import type { ValidatorsInput } from "../model/jobs.js";
import type { WorkerPool } from "../shared/worker-pool.js";

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

export type { ValidatorsInput };

/** A validators module under way (on a worker of the build's pool for a large server). */
export interface PendingFile {
  result: Promise<EmittedFile>;
  /** Stops the worker when the result is no longer wanted (the emit failed elsewhere). */
  cancel(): void;
}

/**
 * Compiles a server's validators: on a worker of the build's pool from the pool's threshold on
 * (this thread emits the rest meanwhile), else here. The bytes are the same either way.
 */
export function validatorsModule(input: ValidatorsInput, pool: WorkerPool): PendingFile {
  if (!pool.offThread(input.schemas.length)) return { result: Promise.resolve(emitValidatorsModule(input)), cancel: () => {} };
  const job = pool.run("validators", input);
  job.result.catch(() => {}); // awaited by the emit, or cancelled with it
  return { result: job.result, cancel: job.cancel };
}

export function validatorsInput(plan: ServerPlan): ValidatorsInput {
  const schemas: ValidatorsInput["schemas"] = [];
  for (const t of plan.tools) {
    schemas.push({ name: t.validateInput, schema: t.tool.inputSchema });
    if (t.validateOutput && t.tool.outputSchema) schemas.push({ name: t.validateOutput, schema: t.tool.outputSchema });
  }
  return { dir: plan.dir, specFile: plan.server.origin.file, schemas };
}

export function emitValidators(plan: ServerPlan): EmittedFile[] {
  const names = plan.tools.flatMap((t) => [t.validateInput, ...(t.validateOutput ? [t.validateOutput] : [])]);
  return [emitValidatorsModule(validatorsInput(plan)), emitValidatorDeclarations(plan.dir, plan.server.origin.file, names)];
}

/** Where a server's validators module is emitted. */
export const validatorsPath = (dir: string): string => `${dir}/src/validators.mjs`;

/** src/validators.mjs. */
export function emitValidatorsModule(input: ValidatorsInput): EmittedFile {
  const ajv = new Ajv2020({
    code: { source: true, esm: true, lines: true, optimize: true },
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    allErrors: true,
    verbose: false,
  });
  addFormats.default(ajv);
  ajv.addKeyword(MCP_HEADER);
  ajv.addKeyword(ENUM_NAMES); // form display names (ask:), nothing to validate // an MCP annotation for clients, nothing to validate
  // ajv resolves $anchor for $ref but never registers it, so strict mode refused it in a $ref target.
  ajv.addKeyword("$anchor");
  const exports: Record<string, string> = {};
  const aliases: string[] = [];
  // Identical schemas (every exec tool's output schema, say) compile once; later names alias the first.
  const firstName = new Map<string, string>();
  // Added in plan order (tools sorted by name) so generated code is the same on every run.
  for (const { name, schema } of input.schemas) {
    const key = JSON.stringify(schema);
    const first = firstName.get(key);
    if (first) {
      aliases.push(`export const ${name} = ${first};`);
      continue;
    }
    firstName.set(key, name);
    ajv.addSchema(schema, `kervan:${name}`);
    exports[name] = `kervan:${name}`;
  }
  const code = esmOnly(standaloneCode.default(ajv, exports));
  const tail = aliases.length ? `\n${aliases.join("\n")}\n` : "";
  return { path: validatorsPath(input.dir), contents: `${header(input.specFile)}\n${code}${tail}` };
}

/** src/validators.d.mts: declarations, so the typed tool modules see each validator as the runtime's Validator. */
export function emitValidatorDeclarations(dir: string, specFile: string, names: string[]): EmittedFile {
  const declarations = [
    header(specFile).toString(),
    "",
    'import type { Validator } from "@kervan/runtime";',
    "",
    ...names.map((n) => `export declare const ${n}: Validator;`),
    "",
  ].join("\n");
  return { path: `${dir}/src/validators.d.mts`, contents: declarations };
}
