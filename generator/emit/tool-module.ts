// Emits src/tools/<tool>.ts: the tool's definition, typed, with its kind's config and handler.
import type { ServerPlan, ToolPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import type { KindEmit } from "../kinds/types.js";
import { _, code, docComment, literal, name, objectCode, type Code } from "../shared/codegen.js";
import { header } from "./header.js";
import { constStatement, emitSource, importDecl, type Statement } from "./source.js";

function importsOf(names: string[]): { namedImports: string[]; isTypeOnly: boolean } {
  const allTypes = names.every((n) => n.startsWith("type "));
  return { namedImports: allTypes ? names.map((n) => n.slice(5)) : names, isTypeOnly: allTypes };
}

/** The tool's module, printed from its kind's emit (`part`). */
export function emitToolModule(server: ServerPlan, plan: ToolPlan, part: KindEmit): EmittedFile {
  const t = plan.tool;
  const statements: Statement[] = [];
  const imports: Record<string, string[]> = { ...part.imports };
  imports["@kervan/runtime"] = ["type ToolDef", ...(imports["@kervan/runtime"] ?? [])];
  for (const spec of Object.keys(imports).sort()) {
    const { namedImports, isTypeOnly } = importsOf(imports[spec]);
    statements.push(importDecl(spec, namedImports, isTypeOnly));
  }
  const validateInput = name(plan.validateInput);
  const validateOutput = plan.validateOutput ? name(plan.validateOutput) : undefined;
  statements.push(importDecl("../validators.mjs", [plan.validateInput, ...(plan.validateOutput ? [plan.validateOutput] : [])]));
  statements.push(importDecl("../types.js", [plan.inputType, ...(plan.outputType ? [plan.outputType] : [])], true));
  statements.push((w) => w.blankLineIfLastNot());
  statements.push({ kind: "typeAlias", name: name("Input"), type: name(plan.inputType), isExported: true, docs: ["The arguments this tool accepts (validated before the handler runs)."] });
  if (plan.outputType) statements.push({ kind: "typeAlias", name: name("Output"), type: name(plan.outputType), isExported: true, docs: ["The structured result this tool returns."] });
  for (const c of part.constants) statements.push(constStatement(c.name, c.type, c.initializer, c.doc ? docComment(c.doc) : undefined, c.comment));
  const fields: Code[] = [
    _`name: ${t.name}`,
    ...(t.title ? [_`title: ${t.title}`] : []),
    _`description: ${t.description}`,
    _`inputSchema: ${part.schemaRefs?.input ?? code(t.inputSchema)}`,
    ...(t.outputSchema ? [_`outputSchema: ${part.schemaRefs?.output ?? code(t.outputSchema)}`] : []),
    _`annotations: ${code({ ...(t.title ? { title: t.title } : {}), ...t.annotations })}`,
    _`validateInput: ${validateInput}`,
    ...(validateOutput ? [_`validateOutput: ${validateOutput}`] : []),
    _`maxOutputChars: ${literal(t.maxOutputChars)}`,
    ...(t.scopes ? [_`scopes: ${t.scopes}`] : []),
    ...(t.task ? [_`task: ${t.task}`] : []),
    ...(t.confirm ? [_`confirm: ${code(t.confirm)}`] : []),
    ...(t.ask ? [_`ask: ${code(t.ask)}`] : []),
    ...(t.questions ? [_`questions: ${t.questions}`] : []),
    _`handler: ${part.handler}`,
  ];
  statements.push(constStatement(name("tool"), name("ToolDef"), objectCode(fields), docComment(`${t.name}: ${t.description.split("\n")[0]}`)));
  if (part.startup?.length) {
    statements.push({ kind: "function", name: name("startup"), isExported: true, returnType: name("void"), docs: ["Checks this tool's configuration before the server starts serving."], statements: part.startup });
  }
  if (part.workerRole) statements.push(_`export { ${part.workerRole} as workerRole };`);
  return { path: `${server.dir}/${plan.file}`, contents: emitSource(header(t.origin.file), statements) };
}
