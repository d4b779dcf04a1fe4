// Per-tool scopes: the view of the server a principal may use. tools/list shows only what it may call;
// a call outside the view is refused before anything else looks at it, the same whether the tool exists or not.
import type { Core } from "../core.js";
import { describeTool } from "../tools.js";
import type { Era, ToolDef } from "../types.js";
import type { Principal } from "./types.js";

export interface ScopeViews {
  /** Every scope the server names (server-wide and per tool), sorted: the scopes_supported of its metadata. */
  all: string[];
  /** The server as this principal may use it (the whole core when nothing is hidden). */
  viewFor(principal: Principal): Core;
}

function permitted(tool: ToolDef, held: ReadonlySet<string>): boolean {
  return (tool.scopes ?? []).every((s) => held.has(s));
}

export function scopeViews(core: Core, serverScopes: string[]): ScopeViews {
  const all = [...new Set([...serverScopes, ...core.all.flatMap((t) => t.scopes ?? [])])].sort();
  const cache = new Map<string, Core>();
  // A principal's view, remembered for as long as the principal object lives (a verified token's principal
  // is reused for every request that sends it), so a request does not filter the tools again.
  const remembered = new WeakMap<Principal, Core>();
  const compute = (principal: Principal): Core => {
    if (principal.scopes === null) return core;
    const held = principal.scopes;
    const visible = core.all.filter((t) => permitted(t, held));
    if (visible.length === core.all.length) return core;
    const key = visible.map((t) => t.name).join("\n");
    let view = cache.get(key);
    if (!view) {
      const tools = new Map(visible.map((t) => [t.name, t]));
      const lists = new Map<Era, Record<string, unknown>[]>();
      view = {
        ...core,
        tools,
        listTools(era) {
          let list = lists.get(era);
          if (!list) lists.set(era, (list = visible.filter(core.listed).map((t) => describeTool(t, era))));
          return list;
        },
      };
      // Bounded: one entry per distinct set of visible tools.
      if (cache.size < 1024) cache.set(key, view);
    }
    return view;
  };
  return {
    all,
    viewFor(principal) {
      if (principal.scopes === null) return core;
      let view = remembered.get(principal);
      if (view === undefined) remembered.set(principal, (view = compute(principal)));
      return view;
    },
  };
}
