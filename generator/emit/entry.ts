// Emits src/server.ts: the tools table and the call into the runtime.
import type { ServerPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { kindFor } from "../kinds/index.js";
import { _, docComment, join, name, objectCode, type Code } from "../shared/codegen.js";
import { header } from "./header.js";
import { StructureKind } from "ts-morph";
import { constStatement, emitSource, importDecl, type Statement } from "./project.js";

export function emitEntry(plan: ServerPlan): EmittedFile {
  const s = plan.server;
  const parts = plan.tools.map((t) => ({ id: name(t.ident), part: kindFor(t.tool).emit(t) }));
  const withStartup = parts.filter((p) => p.part.startup?.length).map((p) => p.id);
  const roles = parts.filter((p) => p.part.workerRole).map((p) => p.id);
  const fields: Code[] = [
    _`name: ${s.name}`,
    _`version: ${s.version}`,
    ...(s.title ? [_`title: ${s.title}`] : []),
    ...(s.instructions ? [_`instructions: ${s.instructions}`] : []),
    ...(s.http ? [_`http: ${s.http}`] : []),
    ...(s.telemetry === "otlp" ? [_`telemetry: ${name("otlpTelemetry")}`] : []),
    _`tools: [${join(parts.map((p) => _`${p.id}.tool`))}]`,
    ...(withStartup.length ? [_`startup() {\n  ${join(withStartup.map((id) => _`${id}.startup();`), "\n  ")}\n}`] : []),
    ...(roles.length ? [_`workerRoles: [${join(roles.map((id) => _`${id}.workerRole`))}]`] : []),
  ];
  const statements: Statement[] = [
    importDecl("@kervan/runtime", ["runServer", "type ServerDef"]),
    ...(s.telemetry === "otlp" ? [importDecl("@kervan/telemetry", ["otlpTelemetry"])] : []),
    ...plan.tools.map((t): Statement => ({ kind: StructureKind.ImportDeclaration, moduleSpecifier: t.importPath, namespaceImport: name(t.ident).toString() })),
    constStatement(name("server"), name("ServerDef"), objectCode(fields), docComment(`The ${s.name} MCP server, version ${s.version}.`)),
    (w) => w.blankLineIfLastNot().write("runServer(server);"),
  ];
  const contents = emitSource(`${plan.dir}/src/server.ts`, header(s.origin.file), statements);
  return { path: `${plan.dir}/src/server.ts`, contents };
}
