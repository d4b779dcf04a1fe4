// Under exposure: catalog, the operations the entry does not import at start. The entry holds each run
// of them as one JSON text of heads (what search and scope filtering need), made lazyTools
// (templates/runtime/catalog/lazy.ts) at start; src/operations.ts, imported on the first describe or
// call, maps each name to its module's import(). A large catalog's start-up thus parses no operation's
// code and no per-operation closure: one JSON.parse per run.
import type { ServerPlan, ToolPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import type { KindEmit } from "../kinds/types.js";
import { _, join, literal, type Code } from "../shared/codegen.js";
import { header } from "./header.js";
import { emitSource, importDecl, type Statement } from "./source.js";

/**
 * Whether the entry loads this tool on first use. Kept at start: tools listed beside the catalog
 * tools, tools that confirm, ask or run as tasks (the modes layer reads them at start), tools with
 * x-mcp-header inputs (the HTTP transport reads their schema per request), and tools whose kind has
 * start-up checks it cannot run without the module.
 */
export function isLazy(server: ServerPlan["server"], plan: ToolPlan, part: KindEmit): boolean {
  const t = plan.tool;
  if (server.exposure !== "catalog" || t.expose === "always") return false;
  if (t.task || t.confirm || t.ask) return false;
  if (JSON.stringify(t.inputSchema).includes('"x-mcp-header"')) return false;
  return !part.startup?.length || part.startupHead !== undefined;
}

/** {name, maxOutputChars, annotations, scopes}: annotations as the tool module writes them. */
function headOf(plan: ToolPlan): Record<string, unknown> {
  const t = plan.tool;
  return {
    name: t.name,
    maxOutputChars: t.maxOutputChars,
    annotations: { ...(t.title ? { title: t.title } : {}), ...t.annotations },
    ...(t.scopes ? { scopes: t.scopes } : {}),
  };
}

/** `...lazyTools("[heads]", load)` for a run of lazily loaded tools, in tool order. */
export function lazyRunCode(run: ToolPlan[]): Code {
  return _`...lazyTools(${literal(JSON.stringify(run.map(headOf)))}, (name) => import("./operations.js").then((m) => m.load(name)))`;
}

/** src/operations.ts: each lazily loaded tool's module by name, imported when first used. */
export function emitOperations(plan: ServerPlan, lazy: ToolPlan[]): EmittedFile {
  const loaders = lazy.map((t) => _`${literal(t.tool.name)}: () => import(${literal(t.importPath)})`);
  const statements: Statement[] = [
    importDecl("@kervan/runtime", ["ToolDef"], true),
    (w) => w.blankLineIfLastNot().write(`const modules: Record<string, () => Promise<{ tool: ToolDef }>> = {\n  ${join(loaders, ",\n  ")},\n};`),
    (w) => w.blankLineIfLastNot().write(`/** The module of the operation \`name\` (one of this server's lazily loaded tools). */\nexport function load(name: string): Promise<{ tool: ToolDef }> {\n  return modules[name]!();\n}`),
  ];
  return { path: `${plan.dir}/src/operations.ts`, contents: emitSource(header(plan.server.origin.file), statements) };
}
