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

/**
 * A ToolDef for `head` whose module `load` brings the rest (its `tool` export) on first use. `head`
 * itself becomes the ToolDef (no copy): at start, a catalog's thousand heads cost one JSON.parse and
 * a few properties each.
 */
export function lazyTool(head: LazyHead, load: () => Promise<{ tool: ToolDef }>): ToolDef {
  let loading: Promise<void> | undefined;
  const def = head as ToolDef;
  def.description = "";
  def.inputSchema = {};
  def.validateInput = unloaded as unknown as Validator;
  def.handler = unloaded;
  def.load = () =>
    (loading ??= load().then(
      ({ tool }) => {
        Object.assign(def, tool);
        delete def.load;
      },
      (e: unknown) => {
        loading = undefined; // a failed load is tried again on the next use
        throw e;
      },
    ));
  return def;
}

/**
 * The lazyTools of one run of the tools table: `heads` is their LazyHead list as one JSON text (one
 * JSON.parse at start instead of a literal and a closure per operation to compile), `load` imports
 * the module of the operation by name.
 */
export function lazyTools(heads: string, load: (name: string) => Promise<{ tool: ToolDef }>): ToolDef[] {
  return (JSON.parse(heads) as LazyHead[]).map((head) => lazyTool(head, () => load(head.name)));
}

/** Loads whichever of `tools` are not loaded yet. */
export async function loadTools(tools: ToolDef[]): Promise<void> {
  await Promise.all(tools.map((t) => t.load?.()));
}
