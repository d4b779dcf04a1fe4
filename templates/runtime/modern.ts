// MCP 2026-07-28: stateless requests; every result carries resultType and serverInfo _meta, lists carry cache hints.
import { CACHE_TTL_MS, META_SERVER_INFO, SUPPORTED_VERSIONS } from "./protocol.js";
import type { SignalSource } from "./types.js";
import { getPrompt, listPrompts } from "./prompts.js";
import { handleCall, methodNotFound, rejectCursor, resourceNotFound, type Core, type Notify } from "./core.js";

type Params = Record<string, unknown> | undefined;

const cacheable = { ttlMs: CACHE_TTL_MS, cacheScope: "public" } as const;

export async function serveModern(core: Core, method: string, params: Params, signal: SignalSource, notify?: Notify, principal = "local"): Promise<Record<string, unknown>> {
  const body = (core.modes && (await core.modes.serveTaskMethod(method, params, principal, (tool) => core.tools.has(tool)))) ?? (await route(core, method, params, signal, notify, principal));
  // The result _meta names the server by {name, version} exactly; the display title stays in initialize.
  return { resultType: "complete", ...body, _meta: { [META_SERVER_INFO]: { name: core.def.name, version: core.def.version } } };
}

async function route(core: Core, method: string, params: Params, signal: SignalSource, notify: Notify | undefined, principal: string): Promise<Record<string, unknown>> {
  switch (method) {
    case "server/discover": {
      const body: Record<string, unknown> = {
        supportedVersions: [...SUPPORTED_VERSIONS],
        // resources are declared because their (empty) list is served with cache hints; prompts only when the spec has some.
        capabilities: { tools: {}, ...(core.def.prompts ? { prompts: {} } : {}), resources: {}, ...(core.def.tasks ? { extensions: { "io.modelcontextprotocol/tasks": {} } } : {}) },
      };
      if (core.def.instructions !== undefined) body.instructions = core.def.instructions;
      return { ...body, ...cacheable };
    }
    case "tools/list":
      rejectCursor(params);
      return { tools: core.listTools("2026-07-28"), ...cacheable };
    case "tools/call":
      return handleCall(core, params, "2026-07-28", signal, notify, principal);
    case "prompts/list":
      rejectCursor(params);
      return { prompts: listPrompts(core.def), ...cacheable };
    case "resources/list":
      rejectCursor(params);
      return { resources: [], ...cacheable };
    case "resources/templates/list":
      rejectCursor(params);
      return { resourceTemplates: [], ...cacheable };
    case "resources/read":
      return resourceNotFound(params);
    case "prompts/get":
      return getPrompt(core.def, params, "2026-07-28", principal, core.modes);
    default:
      // initialize, ping, logging/setLevel and subscriptions/listen land here too: not part of this era or not offered.
      return methodNotFound(method);
  }
}
