// Emits src/server.ts: the tools table and the call into the runtime.
import type { ServerPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import type { KindEmit } from "../kinds/types.js";
import { _, docComment, join, name, objectCode, type Code } from "../shared/codegen.js";
import { header } from "./header.js";
import { constStatement, emitSource, importDecl, type Statement } from "./source.js";
import { emitOperations, isLazy, lazyRunCode } from "./lazy.js";

/** The store's opener: only a server whose spec chose that store imports (and bundles) it. */
const STORE_OPENERS = { file: "openFileStore", redis: "openRedisStore" } as const;

function tasksField(server: string, tasks: NonNullable<ServerPlan["server"]["tasks"]>): Code {
  const fields: Code[] = [_`store: ${tasks.store}`, _`ttlMs: ${tasks.ttlMs}`, _`pollIntervalMs: ${tasks.pollIntervalMs}`];
  for (const key of ["maxPerPrincipal", "maxTasks", "maxResultBytes"] as const) {
    const value = tasks[key];
    if (value !== undefined) fields.push(_`${name(key)}: ${value}`);
  }
  if (tasks.store === "file") fields.push(_`open: () => ${name("openFileStore")}()`);
  if (tasks.store === "redis") fields.push(_`open: () => ${name("openRedisStore")}(${server})`);
  return _`tasks: ${objectCode(fields)}`;
}

/**
 * The index's loader: src/catalog.ts imported on the first search, which esbuild makes a chunk file of
 * its own under exposure: catalog (a split bundle) and a module initialised on first use in a single
 * bundle (exposure: code); either way start-up does not parse the index.
 */
const LOAD_INDEX = _`loadIndex: () => import("./catalog.js").then((m) => m.index)`;

/** server.exposure: catalog: the index's loader, the tools listed beside the catalog tools, their cap. */
function catalogField(s: ServerPlan["server"]): Code {
  const always = s.tools.filter((t) => t.expose === "always").map((t) => t.name);
  if (s.exposure === "code") {
    return _`catalog: ${objectCode([LOAD_INDEX, _`always: ${always}`, _`maxOutputChars: ${s.maxOutputChars}`, _`tools: ${name("codeTools")}`, _`serve: ${name("serveCode")}`, _`code: ${name("codeMode")}`])}`;
  }
  return _`catalog: ${objectCode([LOAD_INDEX, _`always: ${always}`, _`maxOutputChars: ${s.maxOutputChars}`, _`tools: ${name("catalogTools")}`, _`serve: ${name("serveCatalog")}`])}`;
}

/** The imports the start-up checks of lazily loaded tools need, merged by module. */
function headImports(parts: KindEmit[]): Statement[] {
  const by = new Map<string, Set<string>>();
  for (const p of parts) for (const [spec, names] of Object.entries(p.startupHead?.imports ?? {})) for (const n of names) (by.get(spec) ?? by.set(spec, new Set()).get(spec)!).add(n);
  return [...by.keys()].sort().map((spec) => importDecl(spec, [...by.get(spec)!].sort()));
}

/**
 * The start-up checks, in tool order: a loaded tool's own, a lazily loaded tool's head (emit/lazy.ts),
 * run once per distinct thing read (KindEmit startupHead.reads): the check of the first tool that reads it.
 */
function startupChecks(parts: { id: Code; lazy: boolean; part: KindEmit }[]): Code[] {
  const seen = new Set<string>();
  return parts.flatMap((p) => {
    if (!p.lazy) return p.part.startup?.length ? [_`${p.id}.startup();`] : [];
    const head = p.part.startupHead;
    if (head?.reads !== undefined && seen.has(head.reads)) return [];
    if (head?.reads !== undefined) seen.add(head.reads);
    return head?.statements ?? [];
  });
}

/** The tools table in tool order: a loaded tool's `tool`, each run of lazily loaded tools one lazyRunCode. */
function toolsTable(parts: { id: Code; plan: ServerPlan["tools"][number]; lazy: boolean }[]): Code[] {
  const out: Code[] = [];
  for (let i = 0; i < parts.length; ) {
    if (!parts[i]!.lazy) out.push(_`${parts[i++]!.id}.tool`);
    else {
      let end = i;
      while (end < parts.length && parts[end]!.lazy) end++;
      out.push(lazyRunCode(parts.slice(i, end).map((p) => p.plan)));
      i = end;
    }
  }
  return out;
}

/**
 * src/server.ts, and src/operations.ts when some tools load on first use, from each tool's kind
 * emit (`emits`, in tool order: the same ones its tool module is printed from).
 */
export function emitEntry(plan: ServerPlan, emits: KindEmit[]): EmittedFile[] {
  const s = plan.server;
  const parts = plan.tools.map((t, i) => {
    const part = emits[i]!;
    return { id: name(t.ident), plan: t, part, lazy: isLazy(s, t, part) };
  });
  const eager = parts.filter((p) => !p.lazy);
  const startups = startupChecks(parts);
  const roles = eager.filter((p) => p.part.workerRole).map((p) => p.id);
  const fields: Code[] = [
    _`name: ${s.name}`,
    _`version: ${s.version}`,
    ...(s.title ? [_`title: ${s.title}`] : []),
    ...(s.instructions ? [_`instructions: ${s.instructions}`] : []),
    ...(s.http ? [_`http: ${s.http}`] : []),
    ...(s.telemetry === "otlp" ? [_`telemetry: ${name("otlpTelemetry")}`] : []),
    _`tools: [${join(toolsTable(parts))}]`,
    ...(startups.length ? [_`startup() {\n  ${join(startups, "\n  ")}\n}`] : []),
    ...(roles.length ? [_`workerRoles: [${join(roles.map((id) => _`${id}.workerRole`))}]`] : []),
    ...(s.tasks ? [tasksField(s.name, s.tasks)] : []),
    ...(s.prompts ? [_`prompts: ${s.prompts.map(({ origin: _origin, ...p }) => p)}`] : []),
    ...(s.resources ? [_`resources: ${s.resources.map(({ origin: _o, sha256: _h, source: _s, ...r }) => r)}`] : []),
    ...(s.resourceTemplates ? [_`templates: ${objectCode([_`list: ${s.resourceTemplates.map(({ origin: _o, variables: _v, ...t }) => t)}`, _`match: ${name("matchTemplate")}`])}`] : []),
    ...(s.exposure === "catalog" || s.exposure === "code" ? [catalogField(s)] : []),
  ];
  // Only servers with tools that run as tasks, confirm or ask, or prompts that ask, import (and bundle) that layer and their store.
  const hasModes = s.tools.some((t) => t.task || t.confirm || t.ask) || (s.prompts?.some((p) => p.ask) ?? false);
  if (hasModes) fields.push(_`modes: ${name("callModes")}`);
  const modeImports: Statement[] = [
    ...(hasModes ? [importDecl("@kervan/tasks", ["callModes"])] : []),
    ...(s.tasks && s.tasks.store !== "memory" ? [importDecl(`@kervan/task-store-${s.tasks.store}`, [STORE_OPENERS[s.tasks.store]])] : []),
  ];
  const statements: Statement[] = [
    importDecl("@kervan/runtime", ["runServer", "type ServerDef"]),
    ...(s.telemetry === "otlp" ? [importDecl("@kervan/telemetry", ["otlpTelemetry"])] : []),
    ...modeImports,
    ...(s.resourceTemplates ? [importDecl("@kervan/resource-templates", ["matchTemplate"])] : []),
    ...(s.exposure === "catalog" ? [importDecl("@kervan/catalog", ["catalogTools", "serveCatalog", ...(parts.some((p) => p.lazy) ? ["lazyTools"] : [])])] : []),
    ...(s.exposure === "code" ? [importDecl("@kervan/codemode", ["codeTools", "serveCode"]), importDecl("./codemode.js", ["code as codeMode"])] : []),
    ...headImports(parts.filter((p) => p.lazy).map((p) => p.part)),
    ...eager.map((p): Statement => ({ kind: "import", moduleSpecifier: p.plan.importPath, namespaceImport: p.id.toString() })),
    constStatement(name("server"), name("ServerDef"), objectCode(fields), docComment(`The ${s.name} MCP server, version ${s.version}.`)),
    (w) => w.blankLineIfLastNot().write("runServer(server);"),
  ];
  const contents = emitSource(header(s.origin.file), statements);
  const lazy = parts.filter((p) => p.lazy).map((p) => p.plan);
  return [{ path: `${plan.dir}/src/server.ts`, contents }, ...(lazy.length ? [emitOperations(plan, lazy)] : [])];
}
