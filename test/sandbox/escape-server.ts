// The escape corpus as a real server: one exec tool per case (all under the sandbox), plus `echo`,
// an unsandboxed tool that shows the server still answers after a case.
import { onShutdown, runServer, type ServerDef, type ToolDef, type Validator } from "../../templates/runtime/index.js";
import { checkExecStartup, createExecHandler, EXEC_OUTPUT_SCHEMA, type ExecToolConfig } from "../../templates/kinds/exec/index.js";
import { objectOf } from "../runtime/fixtures/validators.js";
import { ABSTRACT_CONTROL, ABSTRACT_OFFLINE, CASES, NETWORK_CONTROL, caseConfig } from "./corpus.js";

const configs: ExecToolConfig[] = [...CASES, NETWORK_CONTROL, ABSTRACT_CONTROL, ABSTRACT_OFFLINE].map(caseConfig);
configs.push({ tool: "echo", argv: [["echo"], ["alive"]], fields: {} });
// For the server-kill test: a long sleep without the sandbox, and one under it.
configs.push({ tool: "sleep_unsandboxed", argv: [["sleep"], ["69.09"]], fields: {}, sandbox: { mode: "none" }, timeoutMs: 120_000 });
configs.push({ tool: "sleep_sandboxed", argv: [["sleep"], ["70.10"]], fields: {}, sandbox: { mode: "bubblewrap" }, timeoutMs: 120_000 });

// The exec runtime's own results always fit EXEC_OUTPUT_SCHEMA; the generated validator is not needed here.
const anyValue = Object.assign(() => true, { errors: null }) as unknown as Validator;

const tools: ToolDef[] = configs.map((config) => ({
  name: config.tool,
  description: `Escape corpus case ${config.tool}.`,
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  outputSchema: EXEC_OUTPUT_SCHEMA,
  validateInput: objectOf({}),
  validateOutput: anyValue,
  maxOutputChars: 1_000_000,
  handler: createExecHandler(config, { onShutdown }),
}));

const server: ServerDef = {
  name: "escape-corpus",
  version: "0.0.0",
  tools,
  startup() {
    for (const c of configs) checkExecStartup(c);
  },
};

runServer(server);
