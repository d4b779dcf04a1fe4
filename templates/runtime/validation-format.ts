// Turns ajv errors into text a model can act on: tool name, JSON pointer, reason, and the offending value.
import { quoteValue } from "./clip.js";
import type { ValidationError } from "./types.js";

const MAX_LINES = 10;

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Resolves a JSON pointer; `found` is false when the path does not exist. */
export function resolvePointer(data: unknown, pointer: string): { found: boolean; value?: unknown } {
  if (pointer === "") return { found: true, value: data };
  let current: unknown = data;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, key)) {
      return { found: false };
    }
    current = (current as Record<string, unknown>)[key];
  }
  return { found: true, value: current };
}

function describe(error: ValidationError, data: unknown): string {
  const params = error.params ?? {};
  let pointer = error.instancePath ?? "";
  let reason: string;
  let quote = true;
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    pointer += `/${escapeSegment(params.missingProperty)}`;
    reason = "is required but missing (required)";
    quote = false;
  } else if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    pointer += `/${escapeSegment(params.additionalProperty)}`;
    reason = "is not an allowed property (additionalProperties)";
  } else {
    const message = error.message ?? `fails ${error.keyword} ${JSON.stringify(params)}`;
    reason = `${message} (${error.keyword})`;
  }
  let line = `- ${pointer === "" ? "(root)" : pointer}: ${reason}`;
  if (quote) {
    const at = resolvePointer(data, pointer);
    if (at.found) line += `; got ${quoteValue(at.value)}`;
  }
  return line;
}

function lines(errors: readonly ValidationError[] | null | undefined, data: unknown): string[] {
  const seen = new Set<string>();
  for (const error of errors ?? []) seen.add(describe(error, data));
  const all = [...seen];
  if (all.length === 0) all.push("- (root): does not match the schema");
  if (all.length > MAX_LINES) {
    const more = all.length - MAX_LINES;
    all.length = MAX_LINES;
    all.push(`- … and ${more} more`);
  }
  return all;
}

export function formatInputErrors(tool: string, args: unknown, errors: readonly ValidationError[] | null | undefined): string {
  return [`Invalid arguments for tool "${tool}"; fix these and call it again:`, ...lines(errors, args)].join("\n");
}

export function formatOutputErrors(tool: string, value: unknown, errors: readonly ValidationError[] | null | undefined): string {
  return [
    `Tool "${tool}" produced output that failed its own output schema (a fault in the tool, not in your arguments):`,
    ...lines(errors, value),
  ].join("\n");
}
