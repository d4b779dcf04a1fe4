// The tool a tools/call is about, for the request log line and the span: a tool of this view, or
// through call_operation (server.exposure: catalog) the operation it calls.
import type { Core } from "./core.js";

/**
 * The tool a tools/call names, for its log line and span: through call_operation, the operation it
 * calls when this view has it (else call_operation itself).
 */
export function callTarget(core: Pick<Core, "tools">, params: Record<string, unknown> | undefined): string | undefined {
  const name = params?.name;
  if (typeof name !== "string") return undefined;
  const tool = core.tools.get(name);
  if (!tool) return undefined;
  if (tool.catalog !== "call") return name;
  const args = params?.arguments as Record<string, unknown> | undefined;
  const op = typeof args?.name === "string" ? core.tools.get(args.name) : undefined;
  return op && op.catalog === undefined ? op.name : name;
}
