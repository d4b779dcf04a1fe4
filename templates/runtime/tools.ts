// tools/list descriptors per era and tools/call execution: validate, run, check output, build the result body.
import { formatInputErrors, formatOutputErrors } from "./validation-format.js";
import { capText } from "./output.js";
import { describeError, log } from "./log.js";
import type { CallContext, ContentBlock, Era, Json, ToolDef, ToolOutcome } from "./types.js";

/** 2025-11-25 allows only object output schemas: anything else is wrapped as {result: value}. */
export function needsLegacyWrap(tool: ToolDef): boolean {
  return tool.outputSchema !== undefined && tool.outputSchema.type !== "object";
}

/** The legacy output schema: the original under properties.result; $schema and $defs stay at the root so #/$defs refs resolve. */
export function wrapOutputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema, $defs, ...inner } = schema;
  const wrapped: Record<string, unknown> = {};
  if ($schema !== undefined) wrapped.$schema = $schema;
  wrapped.type = "object";
  wrapped.properties = { result: inner };
  wrapped.required = ["result"];
  if ($defs !== undefined) wrapped.$defs = $defs;
  return wrapped;
}

export function describeTool(tool: ToolDef, era: Era): Record<string, unknown> {
  const out: Record<string, unknown> = { name: tool.name };
  if (tool.title !== undefined) out.title = tool.title;
  out.description = tool.description;
  out.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) {
    out.outputSchema = era === "2025-11-25" && needsLegacyWrap(tool) ? wrapOutputSchema(tool.outputSchema) : tool.outputSchema;
  }
  if (tool.annotations !== undefined) out.annotations = tool.annotations;
  return out;
}

/**
 * A fault in the tool rather than a failure it reports: it threw, returned nothing, or broke its own
 * output schema. A plain call reports it as a tool error; a task records it as failed (a server fault
 * is a JSON-RPC error, and a task's `failed` status is for exactly those).
 */
export class ToolFault extends Error {}

function errorBody(text: string, max: number): Record<string, unknown> {
  return { content: [{ type: "text", text: capText(text, max) }], isError: true };
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** Builds the era-specific CallToolResult body (no resultType/_meta: the dispatcher adds those). */
export function buildResult(tool: ToolDef, outcome: ToolOutcome, era: Era): Record<string, unknown> {
  const max = tool.maxOutputChars;
  const extra: ContentBlock[] = Array.isArray(outcome.content) ? outcome.content : [];
  if (outcome.isError) {
    // Error outcomes are for the model to read; they are not held to the output schema. A value
    // that does fit it (an exec call's exit code and stderr, say) still travels as structuredContent.
    const text = outcome.text ?? (outcome.value !== undefined ? json(outcome.value) : `Tool "${tool.name}" failed`);
    const body: Record<string, unknown> = { content: [{ type: "text", text: capText(text, max) }, ...extra], isError: true };
    if (outcome.value !== undefined && tool.outputSchema !== undefined && tool.validateOutput?.(outcome.value)) {
      body.structuredContent = era === "2025-11-25" && needsLegacyWrap(tool) ? { result: outcome.value } : outcome.value;
    }
    return body;
  }
  let structured: Json | undefined;
  if (tool.outputSchema !== undefined) {
    if (outcome.value === undefined) {
      throw new ToolFault(`Tool "${tool.name}" produced no structured value although it declares an output schema (a fault in the tool).`);
    }
    if (tool.validateOutput && !tool.validateOutput(outcome.value)) {
      throw new ToolFault(formatOutputErrors(tool.name, outcome.value, tool.validateOutput.errors));
    }
    structured = era === "2025-11-25" && needsLegacyWrap(tool) ? { result: outcome.value } : outcome.value;
  }
  const content: unknown[] = [];
  const text = outcome.text ?? (structured !== undefined ? json(structured) : outcome.value !== undefined ? json(outcome.value) : undefined);
  if (text !== undefined || extra.length === 0) content.push({ type: "text", text: capText(text ?? "", max) });
  content.push(...extra);
  const body: Record<string, unknown> = { content };
  if (structured !== undefined) body.structuredContent = structured;
  return body;
}

/**
 * Runs one call: input validation first (the handler never sees invalid input), then the handler, guarded.
 * Faults in the tool come back as tool errors, or are thrown as ToolFault when `throwFaults` is set.
 */
export async function callTool(tool: ToolDef, args: Record<string, unknown>, ctx: CallContext, throwFaults = false): Promise<Record<string, unknown>> {
  const fault = (text: string): Record<string, unknown> => {
    if (throwFaults) throw new ToolFault(text);
    return errorBody(text, tool.maxOutputChars);
  };
  if (!tool.validateInput(args)) {
    return errorBody(formatInputErrors(tool.name, args, tool.validateInput.errors), tool.maxOutputChars);
  }
  let outcome: ToolOutcome;
  try {
    outcome = await tool.handler(args, ctx);
  } catch (err) {
    log(`tool ${tool.name} failed: ${describeError(err)}`);
    if (ctx.signal.aborted) return errorBody(`Tool "${tool.name}" was cancelled.`, tool.maxOutputChars);
    const message = err instanceof Error ? err.message : String(err);
    return fault(`Tool "${tool.name}" failed: ${message}`);
  }
  if (outcome === null || typeof outcome !== "object") {
    return fault(`Tool "${tool.name}" returned no outcome (a fault in the tool).`);
  }
  try {
    return buildResult(tool, outcome, ctx.era);
  } catch (err) {
    if (err instanceof ToolFault) return fault(err.message);
    // e.g. a value JSON.stringify cannot serialize (BigInt, cycles)
    log(`tool ${tool.name} result could not be built: ${describeError(err)}`);
    return fault(`Tool "${tool.name}" produced a result that could not be serialized.`);
  }
}
