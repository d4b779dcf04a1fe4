// Confirmations: the spec's message rendered with the call's arguments, the elicitation that asks for
// it, and how an answer reads. An argument enters the message quoted and escaped (JSON string syntax,
// clipped), so a value can never pose as the message's own text or add lines to it. A confirmation
// with `fields` also shows those inputs in its form, each with the caller's value as its default when
// it fits the field (else the schema's own default); the answer's values for them replace the
// arguments. Only the tick box decides whether the call runs.
import { isObject } from "../jsonrpc.js";
import { clipText } from "../clip.js";
import type { ConfirmDef, ConfirmFieldDef } from "../types.js";

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

const BOX = { type: "boolean", title: "Confirm", description: "Tick to let this run; anything else stops it." };

/** The strings a choice (or a multiple choice's items) offers; undefined when it is free. */
function offered(schema: Record<string, unknown>): unknown[] | undefined {
  const from = (s: unknown): unknown[] | undefined => {
    if (!isObject(s)) return undefined;
    if (Array.isArray(s.enum)) return s.enum;
    const list = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
    return list?.map((o) => (isObject(o) ? o.const : undefined));
  };
  return schema.type === "array" ? from(schema.items) : from(schema);
}

/** Whether the caller's value can stand as the field's default: of its type, and among its choices. */
export function fitsField(schema: Record<string, unknown>, value: unknown): boolean {
  const choices = offered(schema);
  const among = (v: unknown) => typeof v === "string" && (!choices || choices.includes(v));
  switch (schema.type) {
    case "array":
      return Array.isArray(value) && value.every(among);
    case "string":
      return among(value);
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeof value === "boolean";
  }
}

function fieldSchema(field: ConfirmFieldDef, args: Record<string, unknown>): Record<string, unknown> {
  const given = args[field.field];
  return Object.hasOwn(args, field.field) && fitsField(field.schema, given) ? { ...field.schema, default: given } : field.schema;
}

/** The elicitation/create request (form mode) that asks the human to confirm, with the confirmation's fields. */
export function confirmRequest(def: ConfirmDef, message: string, args: Record<string, unknown> = {}): Record<string, unknown> {
  const fields = def.fields ?? [];
  return {
    method: "elicitation/create",
    params: {
      mode: "form",
      message,
      requestedSchema: {
        type: "object",
        properties: { confirm: BOX, ...Object.fromEntries(fields.map((f) => [f.field, fieldSchema(f, args)])) },
        required: ["confirm", ...fields.filter((f) => f.required).map((f) => f.field)],
      },
    },
  };
}

/** Only an accepted answer with confirm: true lets the call run. */
export function isConfirmed(response: unknown): boolean {
  return isObject(response) && response.action === "accept" && isObject(response.content) && response.content.confirm === true;
}

/** The values a confirming answer gives for the confirmation's fields (a field it leaves out keeps the caller's value). */
export function confirmedValues(def: ConfirmDef, response: unknown): Record<string, unknown> {
  const content = isObject(response) && isObject(response.content) ? response.content : {};
  const out: Record<string, unknown> = {};
  for (const f of def.fields ?? []) if (content[f.field] !== undefined && content[f.field] !== null) out[f.field] = content[f.field];
  return out;
}

/** The result of a call the human did not confirm: a tool error that says nothing ran and why. */
export function notConfirmed(tool: string, response: unknown, message: string): Record<string, unknown> {
  const action = isObject(response) ? response.action : undefined;
  const why = action === "decline" ? "the user declined" : action === "cancel" ? "the user dismissed the question" : "the answer did not confirm";
  return { content: [{ type: "text", text: `${tool} did not run: ${why} (asked: ${message}).` }], isError: true };
}
