// The built-in validate_json kind: a fixed tool any spec can include with `validate_json: {}`.
// Its definition (description, schemas, annotations) lives with its runtime, so both sides agree.
import type { Json } from "../../../templates/runtime/types.js";
import {
  VALIDATE_JSON_ANNOTATIONS,
  VALIDATE_JSON_DESCRIPTION,
  VALIDATE_JSON_INPUT_SCHEMA,
  VALIDATE_JSON_OUTPUT_SCHEMA,
  VALIDATE_JSON_TITLE,
} from "../../../templates/kinds/validate_json/definition.js";
import { _, code, name } from "../../shared/codegen.js";
import { defineKind, NO_EFFECTS } from "../types.js";
import { VALIDATE_JSON_CODES } from "./codes.js";
import { isObject, jsonObject } from "../../shared/object.js";

/** The spec's `validate_json: {}` block, as its schema below accepts it. */
export type ValidateJsonBlock = { maxWorkers?: number };
export type ValidateJsonIRConfig = { maxWorkers?: number };

declare module "../../model/ir.js" {
  interface KindConfigs {
    validate_json: ValidateJsonIRConfig;
  }
}

export type ValidateJsonFacts = { reads: string; env: string[]; limits: { maxWorkers: number } };

const clone = (v: unknown) => jsonObject(v);


export const validateJsonKind = defineKind<ValidateJsonBlock, ValidateJsonIRConfig, ValidateJsonFacts>({
  key: "validate_json",
  codes: VALIDATE_JSON_CODES,
  docs: "docs/validate-json.md",
  schema: {
    type: "object",
    additionalProperties: false,
    description: "The built-in validate_json tool: checks model-produced JSON against a schema given at call time.",
    properties: {
      maxWorkers: { type: "integer", minimum: 1, maximum: 16, description: "Pattern-matching worker threads (default 4)." },
    },
  },
  needsDescription: false,
  builtin: true,
  tasks: false,
  runtime: { dir: "templates/kinds/validate_json" },
  check(_block, tool, ctx) {
    for (const key of ["input", "output"]) {
      if (tool[key] !== undefined) ctx.report("KV431", `validate_json has a fixed ${key} schema; remove '${key}'`, `${ctx.pointer}/${key}`, { atKey: true });
    }
  },
  normalize(block) {
    const { title: _title, ...annotations } = VALIDATE_JSON_ANNOTATIONS;
    return {
      inputSchema: clone(VALIDATE_JSON_INPUT_SCHEMA),
      outputSchema: clone(VALIDATE_JSON_OUTPUT_SCHEMA),
      config: block.maxWorkers !== undefined ? { maxWorkers: block.maxWorkers } : {},
      annotations: { ...annotations },
      title: VALIDATE_JSON_TITLE,
      description: VALIDATE_JSON_DESCRIPTION,
    };
  },
  emit(plan) {
    const options = plan.tool.config;
    return {
      imports: { "@kervan/kinds/validate_json": ["createValidateJsonHandler", "runWorkerRoleIfAny", "VALIDATE_JSON_INPUT_SCHEMA", "VALIDATE_JSON_OUTPUT_SCHEMA"] },
      constants: [],
      handler: Object.keys(options).length ? _`createValidateJsonHandler(${code(options)})` : _`createValidateJsonHandler()`,
      workerRole: name("runWorkerRoleIfAny"),
      // The tool's schemas are part of its definition in the runtime.
      schemaRefs: { input: name("VALIDATE_JSON_INPUT_SCHEMA"), output: name("VALIDATE_JSON_OUTPUT_SCHEMA") },
    };
  },
  // Reads its two arguments only: no command, host, variable, file or network.
  effects: () => ({ ...NO_EFFECTS, readsOnly: "only checks its arguments" }),
  facts: (tool) => ({
    reads: "its two arguments only",
    env: [],
    limits: { maxWorkers: tool.config.maxWorkers ?? 4 },
  }),
  factLabels: { env: "Environment variables read", limits: "Limits", reads: "Reads" },
  renderFact: (key, v) => (key === "reads" && typeof v === "string" ? v : undefined),
});
