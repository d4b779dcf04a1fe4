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
import { code } from "../../emit/literal.js";
import type { ToolKind } from "../types.js";

const clone = <T>(v: T) => structuredClone(v) as unknown as Record<string, Json>;

export const validateJsonKind: ToolKind = {
  key: "validate_json",
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
  check(tool, ctx) {
    for (const key of ["input", "output"]) {
      if (tool[key] !== undefined) ctx.report("KV431", `validate_json has a fixed ${key} schema; remove '${key}'`, `${ctx.pointer}/${key}`, { atKey: true });
    }
  },
  normalize(tool) {
    const { title: _title, ...annotations } = VALIDATE_JSON_ANNOTATIONS;
    return {
      inputSchema: clone(VALIDATE_JSON_INPUT_SCHEMA),
      outputSchema: clone(VALIDATE_JSON_OUTPUT_SCHEMA),
      config: (tool.validate_json ?? {}) as Json,
      annotations: { ...annotations },
      title: VALIDATE_JSON_TITLE,
      description: VALIDATE_JSON_DESCRIPTION,
    };
  },
  emit(plan) {
    const options = plan.tool.config as Record<string, Json>;
    return {
      imports: { "@kervan/kinds/validate_json": ["createValidateJsonHandler", "runWorkerRoleIfAny", "VALIDATE_JSON_INPUT_SCHEMA", "VALIDATE_JSON_OUTPUT_SCHEMA"] },
      constants: [],
      handler: `createValidateJsonHandler(${Object.keys(options).length ? code(options) : ""})`,
      workerRole: "runWorkerRoleIfAny",
      // The tool's schemas are part of its definition in the runtime.
      schemaRefs: { input: "VALIDATE_JSON_INPUT_SCHEMA", output: "VALIDATE_JSON_OUTPUT_SCHEMA" },
    };
  },
  facts: (tool) => ({
    reads: "its two arguments only",
    network: false,
    filesystem: false,
    env: [],
    limits: { maxWorkers: ((tool.config ?? {}) as Record<string, Json>).maxWorkers ?? 4 },
  }),
};
