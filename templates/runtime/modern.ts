// MCP 2026-07-28: stateless requests; every result carries resultType and serverInfo _meta, lists carry cache hints.
import { CACHE_TTL_MS, META_SERVER_INFO, SUPPORTED_VERSIONS } from "./protocol.js";
import type { SignalSource } from "./types.js";
import { getPrompt, listPrompts } from "./prompts.js";
import { listResources, listTemplates, readResource, type ReadScope } from "./resources.js";
import { complete } from "./completion.js";
import { handleCall, methodNotFound, rejectCursor, serverCallContext, type Core, type Notify } from "./core.js";

type Params = Record<string, unknown> | undefined;

const cacheable = { ttlMs: CACHE_TTL_MS, cacheScope: "public" } as const;

const personal = { ttlMs: CACHE_TTL_MS, cacheScope: "private" } as const;

/** A templated read's content comes from a run of its tool: a client may keep it, no one may share it for long. */
const fresh = { ttlMs: 0, cacheScope: "private" } as const;

/** What a templated read or a completion runs its tool with. */
function scope(core: Core, signal: SignalSource, era: "2026-07-28"): ReadScope {
  return { tools: core.tools, context: () => serverCallContext(core, signal, era) };
}

/** Static contents are the bundle's: public and cacheable; a templated read's are fresh. */
function withHints(body: Record<string, unknown> & { templated?: boolean }): Record<string, unknown> {
  const { templated, ...rest } = body;
  return { ...rest, ...(templated ? fresh : cacheable) };
}

export async function serveModern(core: Core, method: string, params: Params, signal: SignalSource, notify?: Notify, principal = "local", privateTools = false): Promise<Record<string, unknown>> {
  const body = (core.modes && (await core.modes.serveTaskMethod(method, params, principal, (tool) => core.tools.has(tool)))) ?? (await route(core, method, params, signal, notify, principal, privateTools));
  // The result _meta names the server by {name, version} exactly; the display title stays in initialize.
  return { resultType: "complete", ...body, _meta: { [META_SERVER_INFO]: { name: core.def.name, version: core.def.version } } };
}

async function route(core: Core, method: string, params: Params, signal: SignalSource, notify: Notify | undefined, principal: string, privateTools: boolean): Promise<Record<string, unknown>> {
  switch (method) {
    case "server/discover": {
      const body: Record<string, unknown> = { supportedVersions: [...SUPPORTED_VERSIONS], capabilities: core.capabilities("2026-07-28") };
      if (core.def.instructions !== undefined) body.instructions = core.def.instructions;
      return { ...body, ...cacheable };
    }
    case "tools/list":
      rejectCursor(params);
      // A list that scopes filter is the principal's own (caching.mdx: "private" is per authorization context).
      return { tools: core.listTools("2026-07-28"), ...(privateTools ? personal : cacheable) };
    case "tools/call":
      return handleCall(core, params, "2026-07-28", signal, notify, principal);
    case "prompts/list":
      if (!core.def.prompts) return methodNotFound(method);
      rejectCursor(params);
      return { prompts: listPrompts(core.def), ...cacheable };
    case "prompts/get":
      if (!core.def.prompts) return methodNotFound(method);
      return getPrompt(core.def, params, "2026-07-28", principal, core.modes);
    // A server declares resources only when its spec has static resources or templates.
    case "resources/list":
      if (!core.def.resources && !core.def.templates) return methodNotFound(method);
      return { ...listResources(core.def, params), ...cacheable };
    case "resources/read":
      if (!core.def.resources && !core.def.templates) return methodNotFound(method);
      // A templated read runs its tool each time: its content may differ between reads, so it is not cached.
      return withHints(await readResource(core.def, params, "2026-07-28", scope(core, signal, "2026-07-28")));
    case "resources/templates/list":
      if (!core.def.resources && !core.def.templates) return methodNotFound(method);
      rejectCursor(params);
      return { resourceTemplates: listTemplates(core.def), ...cacheable };
    case "completion/complete":
      if (!core.capabilities("2026-07-28").completions) return methodNotFound(method);
      return complete(core.def, params, scope(core, signal, "2026-07-28"));
    default:
      // initialize, ping, logging/setLevel, resources/subscribe, resources/unsubscribe and
      // subscriptions/listen land here too: not part of this era (2026-07-28 removed resources/subscribe)
      // or not offered (the resource list never changes, docs/resources.md).
      return methodNotFound(method);
  }
}
