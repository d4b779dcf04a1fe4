// Confirmations: the spec's message rendered with the call's arguments, the elicitation that asks for
// it, and how an answer reads. An argument enters the message quoted and escaped (JSON string syntax,
// clipped), so a value can never pose as the message's own text or add lines to it.
import { isObject } from "../jsonrpc.js";
import { clipText } from "../clip.js";
import type { ConfirmDef } from "../types.js";

export const DEFAULT_INPUT_KEY = "confirm";
const MAX_VALUE_CHARS = 200;

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(clipText(value, MAX_VALUE_CHARS));
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === undefined) return "(not given)";
  return JSON.stringify(clipText(JSON.stringify(value) ?? "null", MAX_VALUE_CHARS));
}

/** Fills `{field}` from the arguments; `{{` and `}}` are literal braces. */
export function renderMessage(template: string, args: Record<string, unknown>): string {
  return template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g, (whole, field: string | undefined) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    return show(Object.hasOwn(args, field!) ? args[field!] : undefined);
  });
}

export function inputKey(def: ConfirmDef): string {
  return def.inputKey ?? DEFAULT_INPUT_KEY;
}

/** The elicitation/create request (form mode) that asks the human to confirm. */
export function confirmRequest(message: string): Record<string, unknown> {
  return {
    method: "elicitation/create",
    params: {
      mode: "form",
      message,
      requestedSchema: {
        type: "object",
        properties: { confirm: { type: "boolean", title: "Confirm", description: "Tick to let this run; anything else stops it." } },
        required: ["confirm"],
      },
    },
  };
}

/** Only an accepted answer with confirm: true lets the call run. */
export function isConfirmed(response: unknown): boolean {
  return isObject(response) && response.action === "accept" && isObject(response.content) && response.content.confirm === true;
}

/** The result of a call the human did not confirm: a tool error that says nothing ran and why. */
export function notConfirmed(tool: string, response: unknown, message: string): Record<string, unknown> {
  const action = isObject(response) ? response.action : undefined;
  const why = action === "decline" ? "the user declined" : action === "cancel" ? "the user dismissed the question" : "the answer did not confirm";
  return { content: [{ type: "text", text: `${tool} did not run: ${why} (asked: ${message}).` }], isError: true };
}
