// Under exposure: catalog, the operations the entry does not import at start: each is a lazyTool
// (templates/runtime/catalog/lazy.ts) of what search and scope filtering need, loading its module
// with import() on first use, so a large catalog's start-up parses none of their code.
import type { ServerPlan, ToolPlan } from "../model/plan.js";
import type { KindEmit } from "../kinds/types.js";
import { _, literal, type Code } from "../shared/codegen.js";

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

/** `lazyTool({name, maxOutputChars, annotations, scopes}, () => import(module))`: annotations as the tool module writes them. */
export function lazyToolCode(plan: ToolPlan): Code {
  const t = plan.tool;
  const head = {
    name: t.name,
    maxOutputChars: t.maxOutputChars,
    annotations: { ...(t.title ? { title: t.title } : {}), ...t.annotations },
    ...(t.scopes ? { scopes: t.scopes } : {}),
  };
  return _`lazyTool(${literal(head)}, () => import(${literal(plan.importPath)}))`;
}
