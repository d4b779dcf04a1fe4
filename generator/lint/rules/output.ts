// KV608: a tool that returns structured data declares its shape. An http tool with `select`
// returns JSON; without `output.schema` the client gets untyped text and nothing checks it.
import type { ToolRule } from "../types.js";
import { isObject } from "../../shared/object.js";

export const outputRules: ToolRule[] = [
  {
    code: "KV608",
    summary: "structured tools (http with output.select) declare an output schema",
    tool(t, _s, report) {
      const output = isObject(t.raw.output) ? t.raw.output : undefined;
      if (!output || output.select === undefined || output.schema !== undefined || t.outputSchema) return;
      report(`tool '${t.name}' selects structured JSON but declares no output schema`, `${t.pointer}/output/select`, {
        atKey: true,
        suggestion: "add `output.schema` describing the selected value",
      });
    },
  },
];
