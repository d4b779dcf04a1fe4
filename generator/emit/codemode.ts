// Emits src/codemode.ts for a server with exposure: code: each operation's TypeScript declaration,
// as describe_operation answers it (`api.<name>(args: Input): Promise<Output>` and the types it names),
// from the same json-schema-to-typescript output as src/types.ts, and the program limits.
import type { ServerPlan, ToolPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { summaryOf } from "../catalog/index.js";
import { _, docComment, literal, name } from "../shared/codegen.js";
import { CODE_DEFAULTS } from "../../templates/runtime/codemode/limits.js";
import { header } from "./header.js";
import { indentTypes } from "./indent.js";
import { constStatement, emitSource, importDecl } from "./source.js";
import { typeAt, type CompiledTypes } from "./types.js";

export const codeModePath = (dir: string): string => `${dir}/src/codemode.ts`;

/** One operation's declaration: its signature in `namespace api`, then its input and output types. */
async function declaration(t: ToolPlan, compiled: CompiledTypes): Promise<string> {
  const { file, pointer } = t.tool.origin;
  const input = await typeAt(t.tool.inputSchema, t.inputType, { file, pointer: `${pointer}/input` }, compiled);
  const output = t.outputType && t.tool.outputSchema ? await typeAt(t.tool.outputSchema, t.outputType, { file, pointer: `${pointer}/output/schema` }, compiled) : "";
  const summary = summaryOf(t.tool).replace(/\*\//g, "* /");
  const signature = `declare namespace api {\n/** ${summary} */\nfunction ${t.tool.name}(args: ${t.inputType}): Promise<${output ? t.outputType : "unknown"}>;\n}`;
  return indentTypes([signature, input, output].filter(Boolean).join("\n\n")).trim();
}

/** `compiled`: the types emit's (types.ts), whose output the declarations repeat. */
export async function emitCodeMode(plan: ServerPlan, compiled: CompiledTypes): Promise<EmittedFile> {
  const declarations: Record<string, string> = {};
  for (const t of plan.tools) declarations[t.tool.name] = await declaration(t, compiled);
  const limits = plan.server.code ?? CODE_DEFAULTS;
  const statements = [
    importDecl("@kervan/codemode", ["CodeDef"], true),
    constStatement(
      name("code"),
      name("CodeDef"),
      _`{ limits: ${{ ...limits }}, declarations: JSON.parse(${literal(JSON.stringify(declarations))}) as Record<string, string> }`,
      docComment("Code mode: the limits of one execute program, and each operation's TypeScript declaration."),
    ),
  ];
  return { path: codeModePath(plan.dir), contents: emitSource(header(plan.server.origin.file), statements) };
}
