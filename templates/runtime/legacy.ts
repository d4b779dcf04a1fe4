// MCP 2025-11-25 (initialize era): 2025 result shapes, no resultType, serverInfo _meta or cache hints.
import { negotiateLegacy } from "./protocol.js";
import type { ClientAsker, SignalSource } from "./types.js";
import { getPrompt, listPrompts } from "./prompts.js";
import { listResources, listTemplates, readResource, subscribeResource, type ReadScope } from "./resources.js";
import { complete } from "./completion.js";
import { canElicit } from "./client-requests.js";
import { handleCall, methodNotFound, rejectCursor, serverCallContext, type Core, type Notify } from "./core.js";

type Params = Record<string, unknown> | undefined;

/** What a templated read or a completion runs its tool with. */
function scope(core: Core, signal: SignalSource): ReadScope {
  return { tools: core.tools, context: () => serverCallContext(core, signal, "2025-11-25") };
}

/** The read's body without the runtime's own mark of a templated read. */
function untag({ templated: _t, ...body }: Record<string, unknown>): Record<string, unknown> {
  return body;
}

/** The result, or a promise of it (tools/call); may throw an RpcError at once: callers await it inside their try. */
export function serveLegacy(core: Core, method: string, params: Params, signal: SignalSource, notify?: Notify, principal = "local", asker?: ClientAsker): Record<string, unknown> | Promise<Record<string, unknown>> {
  switch (method) {
    case "initialize": {
      const body: Record<string, unknown> = {
        protocolVersion: negotiateLegacy(params?.protocolVersion),
        capabilities: core.capabilities("2025-11-25"),
        serverInfo: core.serverInfo,
      };
      if (core.def.instructions !== undefined) body.instructions = core.def.instructions;
      return body;
    }
    case "ping":
      return {};
    case "tools/list":
      rejectCursor(params);
      return { tools: core.listTools("2025-11-25") };
    case "tools/call":
      return handleCall(core, params, "2025-11-25", signal, notify, principal, asker);
    // A server declares prompts only when its spec has some (a method of an undeclared capability is -32601).
    case "prompts/list":
      if (!core.def.prompts) return methodNotFound(method);
      rejectCursor(params);
      return { prompts: listPrompts(core.def) };
    case "prompts/get":
      if (!core.def.prompts) return methodNotFound(method);
      // A prompt asks the user only (elicitation/create), where the client declared it.
      return getPrompt(core.def, params, "2025-11-25", principal, core.modes, asker && canElicit(asker.capabilities) ? (p) => asker.request("elicitation/create", p) : undefined);
    case "resources/list":
      if (!core.def.resources && !core.def.templates) return methodNotFound(method);
      return listResources(core.def, params);
    case "resources/read": {
      if (!core.def.resources && !core.def.templates) return methodNotFound(method);
      const read = readResource(core.def, params, "2025-11-25", scope(core, signal));
      return read instanceof Promise ? read.then(untag) : read;
    }
    case "resources/templates/list":
      if (!core.def.resources && !core.def.templates) return methodNotFound(method);
      rejectCursor(params);
      return { resourceTemplates: listTemplates(core.def) };
    // Offered only where the capability says subscribe: true (a spec with static resources); they never change.
    case "resources/subscribe":
    case "resources/unsubscribe":
      if (!core.def.resources) return methodNotFound(method);
      return subscribeResource(core.def, params);
    case "completion/complete":
      if (!core.capabilities("2025-11-25").completions) return methodNotFound(method);
      return complete(core.def, params, scope(core, signal));
    default:
      return methodNotFound(method);
  }
}
