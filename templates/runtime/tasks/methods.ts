// The tasks extension's methods (io.modelcontextprotocol/tasks, 2026-07-28): tasks/get, tasks/update and
// tasks/cancel, each for clients that declare the extension on the request, each limited to the
// principal that started the task. tasks/result and tasks/list were removed by the extension and stay
// unknown methods (-32601).
import { INVALID_PARAMS, INVALID_REQUEST, isObject, MISSING_REQUIRED_CLIENT_CAPABILITY, RpcError } from "../jsonrpc.js";
import { META_CLIENT_CAPABILITIES } from "../protocol.js";
import { detailedTask, type TaskManager } from "./manager.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
export const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

type Params = Record<string, unknown> | undefined;

/** The request's declared client capabilities (2026-07-28 _meta), or undefined. */
export function clientCapabilities(params: Params): Record<string, unknown> | undefined {
  const meta = params?._meta;
  const caps = isObject(meta) ? meta[META_CLIENT_CAPABILITIES] : undefined;
  return isObject(caps) ? caps : undefined;
}

export function declaresTasks(params: Params): boolean {
  const extensions = clientCapabilities(params)?.extensions;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/** -32021 naming what the client must declare (HTTP 400). */
export function missingCapability(required: Record<string, unknown>, what: string): RpcError {
  return new RpcError(MISSING_REQUIRED_CLIENT_CAPABILITY, `Missing required client capability: ${what}`, { requiredCapabilities: required }, 400);
}

export function tasksRequired(): RpcError {
  return missingCapability({ extensions: { [TASKS_EXTENSION]: {} } }, `this needs the ${TASKS_EXTENSION} extension`);
}

function taskId(params: Params): string {
  const id = params?.taskId;
  if (typeof id !== "string") throw new RpcError(INVALID_PARAMS, "Invalid params: taskId must be a string");
  return id;
}

/** The refusal a tools/call outside the caller's scopes gets (HTTP 403), for a task of such a tool. */
export function outOfScope(): RpcError {
  return new RpcError(INVALID_REQUEST, "Forbidden: the token's scopes do not allow this call", undefined, 403);
}

/**
 * Serves one tasks/* method; undefined when the server runs no tasks (the caller answers -32601).
 * `mayUse` says whether the caller's token may call a tool: a task is read, answered or cancelled only by
 * the principal that started it, and only while its token still holds the tool's scopes.
 */
export async function serveTaskMethod(tasks: TaskManager | undefined, method: string, params: Params, principal: string, mayUse: (tool: string) => boolean = () => true): Promise<Record<string, unknown> | undefined> {
  if (!tasks || !TASK_METHODS.has(method)) return undefined;
  if (!declaresTasks(params)) throw tasksRequired();
  const id = taskId(params);
  const record = await tasks.read(id, principal);
  if (!mayUse(record.tool)) throw outOfScope();
  switch (method) {
    case "tasks/get":
      return detailedTask(record);
    case "tasks/update": {
      const responses = params?.inputResponses;
      if (!isObject(responses)) throw new RpcError(INVALID_PARAMS, "Invalid params: inputResponses must be an object");
      await tasks.answer(id, principal, responses);
      return {};
    }
    default:
      await tasks.cancel(id, principal);
      return {};
  }
}
