// MCP 2026-07-28: stateless requests; every result carries resultType and serverInfo _meta, lists carry cache hints.
import { CACHE_TTL_MS, META_SERVER_INFO, SUPPORTED_VERSIONS } from "./protocol.js";
import type { SignalSource } from "./types.js";
import { getPrompt, listPrompts } from "./prompts.js";
import { listResources, readResource } from "./resources.js";
import { handleCall, methodNotFound, rejectCursor, type Core, type Notify } from "./core.js";

type Params = Record<string, unknown> | undefined;

const cacheable = { ttlMs: CACHE_TTL_MS, cacheScope: "public" } as const;

const personal = { ttlMs: CACHE_TTL_MS, cacheScope: "private" } as const;

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
    // Static resources only: a server declares resources only when its spec has some.
    case "resources/list":
      if (!core.def.resources) return methodNotFound(method);
      return { ...listResources(core.def, params), ...cacheable };
    case "resources/read":
      if (!core.def.resources) return methodNotFound(method);
      return { ...readResource(core.def, params, "2026-07-28"), ...cacheable };
    case "resources/templates/list":
      if (!core.def.resources) return methodNotFound(method);
      rejectCursor(params);
      return { resourceTemplates: [], ...cacheable };
    default:
      // initialize, ping, logging/setLevel, resources/subscribe and subscriptions/listen land here
      // too: not part of this era or not offered (static resources never change).
      return methodNotFound(method);
  }
}
