// Emits src/tools/<tool>.ts: the tool's definition, typed, with its kind's config and handler.
import type { ServerPlan, ToolPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { KINDS } from "../kinds/index.js";
import { code, docComment, literal } from "./literal.js";
import { header } from "./header.js";
import { StructureKind } from "ts-morph";
import { constStatement, emitSource, importDecl, type Statement } from "./project.js";

function importsOf(names: string[]): { namedImports: string[]; isTypeOnly: boolean } {
  const allTypes = names.every((n) => n.startsWith("type "));
  return { namedImports: allTypes ? names.map((n) => n.slice(5)) : names, isTypeOnly: allTypes };
}

/** `{ a, b }` with one field a line; values are already code (multi-line ones indented here). */
export function objectText(fields: string[]): string {
  return `{\n  ${fields.map((f) => f.replace(/\n/g, "\n  ")).join(",\n  ")},\n}`;
}

export function emitToolModule(server: ServerPlan, plan: ToolPlan): EmittedFile {
  const kind = KINDS.find((k) => k.key === plan.tool.kind)!;
  const part = kind.emit(plan);
  const t = plan.tool;
  const statements: Statement[] = [];
  const imports: Record<string, string[]> = { ...part.imports };
  imports["@kervan/runtime"] = ["type ToolDef", ...(imports["@kervan/runtime"] ?? [])];
  for (const spec of Object.keys(imports).sort()) {
    const { namedImports, isTypeOnly } = importsOf(imports[spec]);
    statements.push(importDecl(spec, namedImports, isTypeOnly));
  }
  statements.push(importDecl("../validators.mjs", [plan.validateInput, ...(plan.validateOutput ? [plan.validateOutput] : [])]));
  statements.push(importDecl("../types.js", [plan.inputType, ...(plan.outputType ? [plan.outputType] : [])], true));
  statements.push((w) => w.blankLineIfLastNot());
  statements.push({ kind: StructureKind.TypeAlias, name: "Input", type: plan.inputType, isExported: true, docs: ["The arguments this tool accepts (validated before the handler runs)."] });
  if (plan.outputType) statements.push({ kind: StructureKind.TypeAlias, name: "Output", type: plan.outputType, isExported: true, docs: ["The structured result this tool returns."] });
  for (const c of part.constants) statements.push(constStatement(c.name, c.type, c.initializer, c.doc ? docComment(c.doc) : undefined));
  const fields: string[] = [
    `name: ${literal(t.name)}`,
    ...(t.title ? [`title: ${literal(t.title)}`] : []),
    `description: ${literal(t.description)}`,
    `inputSchema: ${part.schemaRefs?.input ?? code(t.inputSchema)}`,
    ...(t.outputSchema ? [`outputSchema: ${part.schemaRefs?.output ?? code(t.outputSchema)}`] : []),
    `annotations: ${code({ ...(t.title ? { title: t.title } : {}), ...t.annotations })}`,
    `validateInput: ${plan.validateInput}`,
    ...(plan.validateOutput ? [`validateOutput: ${plan.validateOutput}`] : []),
    `maxOutputChars: ${t.maxOutputChars}`,
    `handler: ${part.handler}`,
  ];
  statements.push(constStatement("tool", "ToolDef", objectText(fields), docComment(`${t.name}: ${t.description.split("\n")[0]}`)));
  if (part.startup?.length) {
    statements.push({ kind: StructureKind.Function, name: "startup", isExported: true, returnType: "void", docs: ["Checks this tool's configuration before the server starts serving."], statements: part.startup });
  }
  if (part.workerRole) statements.push(`export { ${part.workerRole} as workerRole };`);
  return { path: `${server.dir}/${plan.file}`, contents: emitSource(plan.file, header(t.origin.file), statements) };
}
