// Emits src/server.ts: the tools table and the call into the runtime.
import type { ServerPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { KINDS } from "../kinds/index.js";
import { docComment, literal } from "./literal.js";
import { header } from "./header.js";
import { StructureKind } from "ts-morph";
import { constStatement, emitSource, importDecl, type Statement } from "./project.js";
import { objectText } from "./tool-module.js";

export function emitEntry(plan: ServerPlan): EmittedFile {
  const s = plan.server;
  const parts = plan.tools.map((t) => ({ t, part: KINDS.find((k) => k.key === t.tool.kind)!.emit(t) }));
  const withStartup = parts.filter((p) => p.part.startup?.length).map((p) => p.t.ident);
  const roles = parts.filter((p) => p.part.workerRole).map((p) => p.t.ident);
  const fields = [
    `name: ${literal(s.name)}`,
    `version: ${literal(s.version)}`,
    ...(s.title ? [`title: ${literal(s.title)}`] : []),
    ...(s.instructions ? [`instructions: ${literal(s.instructions)}`] : []),
    `tools: [${plan.tools.map((t) => `${t.ident}.tool`).join(", ")}]`,
    ...(withStartup.length ? [`startup() {\n  ${withStartup.map((id) => `${id}.startup();`).join("\n  ")}\n}`] : []),
    ...(roles.length ? [`workerRoles: [${roles.map((id) => `${id}.workerRole`).join(", ")}]`] : []),
  ];
  const statements: Statement[] = [
    importDecl("@kervan/runtime", ["runServer", "type ServerDef"]),
    ...plan.tools.map((t): Statement => ({ kind: StructureKind.ImportDeclaration, moduleSpecifier: t.importPath, namespaceImport: t.ident })),
    constStatement("server", "ServerDef", objectText(fields), docComment(`The ${s.name} MCP server, version ${s.version}.`)),
    (w) => w.blankLineIfLastNot().write("runServer(server);"),
  ];
  const contents = emitSource(`${plan.dir}/src/server.ts`, header(s.origin.file), statements);
  return { path: `${plan.dir}/src/server.ts`, contents };
}
