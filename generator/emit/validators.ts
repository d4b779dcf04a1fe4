// Emits src/validators.mjs: every input and output schema precompiled by ajv into standalone
// ESM code. Export names come from the plan, so they are stable whatever else changes.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone/index.js";
import type { ServerPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { header } from "./header.js";

export function emitValidators(plan: ServerPlan): EmittedFile {
  const ajv = new Ajv2020({
    code: { source: true, esm: true, lines: true, optimize: true },
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    allErrors: true,
    verbose: false,
  });
  addFormats.default(ajv);
  const exports: Record<string, string> = {};
  // Added in plan order (tools sorted by name) so generated code is the same on every run.
  for (const t of plan.tools) {
    ajv.addSchema(t.tool.inputSchema as object, `kervan:${t.ident}/input`);
    exports[t.validateInput] = `kervan:${t.ident}/input`;
    if (t.validateOutput && t.tool.outputSchema) {
      ajv.addSchema(t.tool.outputSchema as object, `kervan:${t.ident}/output`);
      exports[t.validateOutput] = `kervan:${t.ident}/output`;
    }
  }
  const code = standaloneCode.default(ajv, exports);
  return { path: `${plan.dir}/src/validators.mjs`, contents: header(plan.server.origin.file) + code };
}
