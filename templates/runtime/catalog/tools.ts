// The catalog tools a server with `exposure: catalog` lists instead of its operations: search, describe
// and call. Their definitions are data, so the generator counts their listing tokens from the same code.
import type { ToolAnnotations, ToolDef } from "../types.js";
import { flatValidator, type FlatSchema } from "./validate.js";

export const SEARCH = "search_operations";
export const DESCRIBE = "describe_operation";
export const CALL = "call_operation";

export const PAGE_DEFAULT = 8;
export const PAGE_MAX = 25;

const searchSchema: FlatSchema = {
  type: "object",
  properties: {
    query: { type: "string", minLength: 1, maxLength: 500, description: "What you want to do, in your own words (e.g. \"open a pull request\")." },
    limit: { type: "integer", minimum: 1, maximum: PAGE_MAX, description: `How many operations to return (${PAGE_DEFAULT} when left out).` },
    cursor: { type: "string", maxLength: 20, description: "The nextCursor of a previous answer, for the next page." },
  },
  required: ["query"],
  additionalProperties: false,
};

const describeSchema: FlatSchema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 128, description: "One operation name from search_operations." },
    names: { type: "array", minItems: 1, maxItems: 10, items: { type: "string", minLength: 1, maxLength: 128 }, description: "Several operation names at once." },
  },
  additionalProperties: false,
};

const callSchema: FlatSchema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 128, description: "The operation name." },
    arguments: { type: "object", description: "The operation's arguments, as its input schema (describe_operation) gives them." },
  },
  required: ["name"],
  additionalProperties: false,
};

const READS: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** call_operation may do whatever one of its operations does: the widest of their hints. */
function callAnnotations(ops: ToolDef[]): ToolAnnotations {
  const all = (k: keyof ToolAnnotations) => ops.every((t) => t.annotations?.[k] === true);
  const any = (k: keyof ToolAnnotations) => ops.some((t) => t.annotations?.[k] !== false);
  return { readOnlyHint: all("readOnlyHint"), destructiveHint: any("destructiveHint"), idempotentHint: all("idempotentHint"), openWorldHint: any("openWorldHint") };
}

function unrun(): never {
  throw new Error("a catalog tool is served by the core, not by its handler");
}

/** The three catalog tools for a server's operations, in name order. */
export function catalogTools(ops: ToolDef[], maxOutputChars: number): ToolDef[] {
  const base = { maxOutputChars, handler: unrun };
  return [
    {
      ...base,
      name: CALL,
      title: "Call an operation",
      description:
        "Run one operation of this server by name with its arguments, checked against that operation's own input schema. Use it after describe_operation has shown the operation's exact inputs; a bad argument is answered with the field at fault and nothing runs.",
      inputSchema: callSchema as unknown as Record<string, unknown>,
      annotations: callAnnotations(ops),
      validateInput: flatValidator(callSchema),
      catalog: "call",
    },
    {
      ...base,
      name: DESCRIBE,
      title: "Describe operations",
      description:
        "Show the full input and output schemas, annotations and confirmation or task needs of one or more operations. Use it after search_operations and before call_operation, to learn the exact arguments an operation takes.",
      inputSchema: describeSchema as unknown as Record<string, unknown>,
      annotations: READS,
      validateInput: flatValidator(describeSchema),
      catalog: "describe",
    },
    {
      ...base,
      name: SEARCH,
      title: "Search operations",
      description:
        "Find this server's operations that fit a task described in plain words, best first, each with its name, a one-line summary and its required inputs. Use it first, whenever you need an operation you have not described yet.",
      inputSchema: searchSchema as unknown as Record<string, unknown>,
      annotations: READS,
      validateInput: flatValidator(searchSchema),
      catalog: "search",
    },
  ];
}
