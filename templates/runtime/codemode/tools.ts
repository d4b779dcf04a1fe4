// The tools a server with `exposure: code` lists: the catalog's search, a describe that answers
// TypeScript declarations, and `execute`, which runs a program against the operations. call_operation
// is listed too when some operation needs the user's confirmation or answers: a program never runs
// those (serve.ts says why), so the model needs a tool that can.
import type { ToolAnnotations, ToolDef } from "../types.js";
import { catalogTools } from "../catalog/tools.js";
import { CALL, DESCRIBE, SEARCH } from "../catalog/tools.js";
import { flatValidator, type FlatSchema } from "../catalog/validate.js";

export const EXECUTE = "execute";

const executeSchema: FlatSchema = {
  type: "object",
  properties: {
    code: {
      type: "string",
      minLength: 1,
      maxLength: 100_000,
      description: "The body of an async JavaScript function (plain JavaScript, no TypeScript annotations). Call operations as `await api.<name>({...})`; `return` the value to answer with; console.log output is returned too.",
    },
  },
  required: ["code"],
  additionalProperties: false,
};

/** The widest effects of the operations a program may reach: execute may do what any of them does. */
function widest(ops: ToolDef[]): ToolAnnotations {
  const a = ops.map((o) => o.annotations ?? {});
  return {
    readOnlyHint: a.every((x) => x.readOnlyHint === true),
    destructiveHint: a.some((x) => x.destructiveHint !== false && x.readOnlyHint !== true),
    idempotentHint: a.every((x) => x.idempotentHint === true || x.readOnlyHint === true),
    openWorldHint: a.some((x) => x.openWorldHint !== false),
  };
}

/** Whether a program may not run the operation: it asks the user (confirm or ask). */
export function needsUser(op: ToolDef): boolean {
  return op.confirm !== undefined || (op.ask?.length ?? 0) > 0;
}

/** The code-mode tools for a server's operations, in name order. */
export function codeTools(ops: ToolDef[], maxOutputChars: number): ToolDef[] {
  const catalog = catalogTools(ops, maxOutputChars);
  const search = catalog.find((t) => t.name === SEARCH)!;
  const describe = catalog.find((t) => t.name === DESCRIBE)!;
  const call = catalog.find((t) => t.name === CALL)!;
  const tools: ToolDef[] = [
    {
      ...describe,
      description:
        "Show the TypeScript declarations of one or more operations: `api.<name>(args: Input): Promise<Output>` with the exact argument and result types. Use it after search_operations and before execute, to write the program.",
    },
    {
      ...search,
      description:
        "Find this server's operations that fit a task described in plain words, best first, each with its name, a one-line summary and its required inputs. Use it first; then describe_operation for their types, then execute.",
    },
    {
      ...describe,
      name: EXECUTE,
      title: "Run a program against the operations",
      description:
        "Run a short JavaScript program (the body of an async function) that calls operations as `await api.<name>(args)`, filters or combines their results, and returns only what matters. Each call is checked against its operation's schema; a failure is thrown as an Error you can catch (message with the field at fault). No network, files, timers or modules: only `api`, `console.log` and JSON values. Limits on time, memory, calls and output apply.",
      inputSchema: executeSchema as unknown as Record<string, unknown>,
      annotations: widest(ops),
      validateInput: flatValidator(executeSchema),
      catalog: "execute",
    },
  ];
  if (ops.some(needsUser)) tools.push(call);
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
