// An operation of a large catalog whose module loads on first use (describe_operation or a call): at
// start the server knows only what search and scope filtering need, so its start-up parses none of
// the operations' schemas, validators or handlers. Loading fills the same ToolDef in place.
import type { ToolAnnotations, ToolDef, Validator } from "../types.js";

/** What an operation shows before its module is loaded. */
export interface LazyHead {
  name: string;
  maxOutputChars: number;
  annotations?: ToolAnnotations;
  scopes?: string[];
}

function unloaded(): never {
  throw new Error("an operation's module was used before it was loaded");
}

/** A ToolDef for `head` whose module `load` brings the rest (its `tool` export) on first use. */
export function lazyTool(head: LazyHead, load: () => Promise<{ tool: ToolDef }>): ToolDef {
  let loading: Promise<void> | undefined;
  const def: ToolDef = {
    ...head,
    description: "",
    inputSchema: {},
    validateInput: unloaded as unknown as Validator,
    handler: unloaded,
    load: () =>
      (loading ??= load().then(
        ({ tool }) => {
          Object.assign(def, tool);
          delete def.load;
        },
        (e: unknown) => {
          loading = undefined; // a failed load is tried again on the next use
          throw e;
        },
      )),
  };
  return def;
}

/** Loads whichever of `tools` are not loaded yet. */
export async function loadTools(tools: ToolDef[]): Promise<void> {
  await Promise.all(tools.map((t) => t.load?.()));
}
