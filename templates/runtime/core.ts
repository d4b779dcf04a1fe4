// Era-independent server state and the request handlers both eras share.
import type { Telemetry } from "./telemetry-hook.js";
import { clipText, quoteValue } from "./clip.js";
import { INVALID_PARAMS, isObject, METHOD_NOT_FOUND, RpcError } from "./jsonrpc.js";
import { callTool, describeTool } from "./tools.js";
import { hasCompletions } from "./completion.js";
import type { CallContext, ClientAsker, Core, Era, ServerDef, SignalSource, ToolDef } from "./types.js";

export type { Core };

/** Sends a notification tied to the request being served (progress); transports drop it after the reply. */
export type Notify = (message: Record<string, unknown>) => void;

/** The tools of a server: under exposure: catalog, its catalog tools too, in name order. */
function allTools(def: ServerDef): ToolDef[] {
  if (!def.catalog) return def.tools;
  return [...def.catalog.tools(def.tools, def.catalog.maxOutputChars), ...def.tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function createCore(def: ServerDef): Core {
  const all = allTools(def);
  const always = new Set(def.catalog?.always ?? []);
  const listed = def.catalog ? (tool: ToolDef) => tool.catalog !== undefined || always.has(tool.name) : () => true;
  const tools = new Map<string, ToolDef>();
  for (const tool of all) tools.set(tool.name, tool);
  const serverInfo: Record<string, string> = { name: def.name, version: def.version };
  if (def.title !== undefined) serverInfo.title = def.title;
  const lists = new Map<Era, Record<string, unknown>[]>();
  return {
    def,
    tools,
    all,
    listed,
    serverInfo,
    serverId: Object.freeze({ name: def.name, version: def.version }),
    capabilities(era) {
      const caps: Record<string, unknown> = { tools: {} };
      if (def.prompts) caps.prompts = {};
      // The resource list never changes: no listChanged. 2025-11-25 subscriptions are accepted for static
      // resources, whose content cannot change (docs/resources.md); 2026-07-28 has no resources/subscribe.
      if (def.resources || def.templates) caps.resources = era === "2025-11-25" && def.resources ? { subscribe: true } : {};
      if (hasCompletions(def)) caps.completions = {};
      if (era === "2026-07-28" && def.tasks) caps.extensions = { "io.modelcontextprotocol/tasks": {} };
      return caps;
    },
    listTools(era) {
      let list = lists.get(era);
      if (!list) {
        // def.tools is sorted by the generator, so this order is deterministic across requests and processes.
        list = all.filter(listed).map((tool) => describeTool(tool, era));
        lists.set(era, list);
      }
      return list;
    },
  };
}

/** A client value echoed in error data: strings clipped; anything else only by kind (it may be huge or deep). */
function echo(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" ? clipText(value) : `(not a string: ${quoteValue(value, 80)})`;
}

/** All tools fit in one page; we never hand out cursors, so any cursor is one we did not issue. */
export function rejectCursor(params: Record<string, unknown> | undefined): void {
  if (params?.cursor !== undefined && params.cursor !== null) {
    throw new RpcError(INVALID_PARAMS, "Invalid cursor", { cursor: echo(params.cursor) });
  }
}

function progressReporter(params: Record<string, unknown> | undefined, notify: Notify | undefined): CallContext["progress"] {
  const meta = params?._meta;
  const token = isObject(meta) ? meta.progressToken : undefined;
  if (!notify || (typeof token !== "string" && typeof token !== "number")) return undefined;
  let last = -Infinity;
  return (progress, total, message) => {
    if (!(typeof progress === "number" && progress > last)) return; // the spec requires increasing values
    last = progress;
    const p: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) p.total = total;
    if (message !== undefined) p.message = message;
    notify({ jsonrpc: "2.0", method: "notifications/progress", params: p });
  };
}

/** A tool's CallContext whose signal is made only when the tool reads it (see CallHandle). */
class Context implements CallContext {
  declare progress?: CallContext["progress"];
  constructor(
    private readonly source: SignalSource,
    readonly era: Era,
    readonly server: { name: string; version: string },
    progress: CallContext["progress"],
  ) {
    if (progress) this.progress = progress;
  }

  get signal(): AbortSignal {
    return this.source.signal;
  }
}

/** The context of a call the server makes itself (a resource read, a completion): no progress to report. */
export function serverCallContext(core: Core, signal: SignalSource, era: Era): CallContext {
  return new Context(signal, era, core.serverId, undefined);
}

export function handleCall(
  core: Core,
  params: Record<string, unknown> | undefined,
  era: Era,
  signal: SignalSource,
  notify?: Notify,
  principal = "local",
  asker?: ClientAsker,
): Promise<Record<string, unknown>> {
  const name = params?.name;
  if (typeof name !== "string") throw new RpcError(INVALID_PARAMS, "Invalid params: name must be a string");
  const tool = core.tools.get(name);
  if (!tool) throw new RpcError(INVALID_PARAMS, `Unknown tool: ${name}`);
  if (tool.load) return tool.load().then(() => handleCall(core, params, era, signal, notify, principal, asker));
  const args = params?.arguments ?? {};
  if (!isObject(args)) throw new RpcError(INVALID_PARAMS, `Invalid params: arguments for tool "${name}" must be an object`);
  const progress = progressReporter(params, notify);
  const ctx = new Context(signal, era, core.serverId, progress);
  if (tool.catalog !== undefined) return core.def.catalog!.serve(core, tool, params, args, ctx, (p) => handleCall(core, p, era, signal, notify, principal, asker));
  if (core.modes && (tool.task !== undefined || tool.confirm !== undefined || tool.ask !== undefined)) return core.modes.run({ tool, args, params, ctx, principal, ...(asker ? { asker } : {}) });
  return callTool(tool, args, ctx);
}

/** -32601; Streamable HTTP answers it with 404 so clients can tell it from a legacy server's bare 404. */
export function methodNotFound(method: string): never {
  throw new RpcError(METHOD_NOT_FOUND, `Method not found: ${method}`, undefined, 404);
}
