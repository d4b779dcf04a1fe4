// Every kind of outcome carries a value that satisfies EXEC_OUTPUT_SCHEMA, so the runtime's
// output validation never turns an exec result into a "value failed its schema" error.
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createExecHandler, EXEC_OUTPUT_SCHEMA, type ExecToolConfig } from "../../../templates/kinds/exec/index.js";
import { ctx, fixture, NODE } from "./helpers.js";

const validate = new Ajv2020({ strict: true }).compile(EXEC_OUTPUT_SCHEMA);
const sh = (script: string, extra: Partial<ExecToolConfig> = {}): ExecToolConfig => ({
  tool: "sh", argv: [["sh"], ["-c"], [script]], fields: {}, ...extra,
});

describe("outcomes fit the output schema", () => {
  it.each<[string, ExecToolConfig, Record<string, unknown>]>([
    ["success", sh("echo hi"), {}],
    ["non-zero exit", sh("exit 4"), {}],
    ["signal", sh("kill -TERM $$"), {}],
    ["timeout", sh("sleep 5", { timeoutMs: 100, killGraceMs: 50 }), {}],
    ["truncated", { tool: "s", argv: [[NODE], [fixture("spew.mjs")], ["stdout"], ["5000"], ["é"]], fields: {}, maxOutputBytes: 33 }, {}],
    ["command not found", { tool: "x", argv: [["kervan-missing"]], fields: {} }, {}],
    ["argument refusal", { tool: "x", argv: [["echo"], [{ field: "a" }]], fields: { a: "string" } }, { a: 5 }],
  ])("%s", async (_name, cfg, args) => {
    const out = await createExecHandler(cfg)(args, ctx());
    expect(validate(out.value), JSON.stringify(validate.errors)).toBe(true);
    expect(typeof out.text).toBe("string");
  });
});
