// `confirm: {message, fields: [...]}`: a confirmation whose form also shows some of the tool's inputs,
// for the user to review and change before the call runs. Each field must be an input property of the
// input schema (inline or read from its @file) that an elicitation form can carry (form-schema.ts, the
// same rules as an asked input), not named `confirm` (the form's tick box), and not also asked (`ask:`
// asks a missing value before the confirmation; a field of the confirmation already asks it when it is
// left out). A field the input schema requires is required in the form too. The check stage reports;
// normalize keeps the result.
import type { Json } from "../../templates/runtime/types.js";
import type { RawTool, RuleContext } from "../kinds/types.js";
import type { ConfirmFieldIR } from "../model/ir.js";
import { isObject } from "../shared/object.js";
import { formSchema } from "./form-schema.js";

/** The form's own boolean property: a field may not take its name. */
export const CONFIRM_BOX = "confirm";

export function resolveConfirmFields(tool: RawTool, inputSchema: Record<string, Json>, ctx: RuleContext): ConfirmFieldIR[] | undefined {
  const confirm = tool.confirm as Json | undefined;
  const fields = isObject(confirm) && Array.isArray(confirm.fields) ? confirm.fields.filter((f): f is string => typeof f === "string") : [];
  const props = isObject(inputSchema.properties) ? inputSchema.properties : {};
  const required = Array.isArray(inputSchema.required) ? inputSchema.required : [];
  const asked = isObject(tool.ask) ? tool.ask : {};
  const out: ConfirmFieldIR[] = [];
  fields.forEach((field, i) => {
    const where = `${ctx.pointer}/confirm/fields/${i}`;
    if (field === CONFIRM_BOX) return ctx.report("KV441", `'${CONFIRM_BOX}' is the confirmation form's own tick box, so no field of it may take that name`, where);
    if (!Object.hasOwn(props, field)) {
      const known = Object.keys(props).sort();
      return ctx.report("KV441", `the confirmation shows '${field}', but it is not an input property of this tool${known.length ? ` (properties: ${known.join(", ")})` : ""}`, where);
    }
    if (Object.hasOwn(asked, field)) return ctx.report("KV441", `'${field}' is both asked (ask:) and a field of the confirmation, which already asks it when the caller leaves it out: drop it from ask`, where);
    const form = formSchema(props[field]);
    if ("why" in form) return ctx.report("KV442", `the confirmation cannot show '${field}' in its form: ${form.why}; a form shows a string, number, integer or boolean, a choice among strings or a multiple choice`, where);
    out.push({ field, schema: form.schema, ...(required.includes(field) ? { required: true as const } : {}) });
  });
  return out.length ? out : undefined;
}
