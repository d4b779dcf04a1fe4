// Conditional argument groups `{if: field, argv: [...]}`: the build-time rules that make an optional
// input safe. A boolean adds fixed text only when true; an optional scalar adds the arguments that
// render it only when present; nothing else may be optional (the same rules the runtime checks).
import type { Json } from "../../../templates/runtime/types.js";
import type { RuleContext } from "../types.js";
import { isGroup, type ArgEntry } from "./template.js";
import type { ScalarType } from "./input-contract.js";
import { isObject, stringsOf } from "../../shared/object.js";

/** The fields that condition a group, in first-use order. */
export const groupFields = (entries: ArgEntry[]): string[] => [...new Set(entries.filter(isGroup).map((g) => g.if))];

const uses = (arg: ArgEntry, field: string): boolean =>
  isGroup(arg) ? arg.argv.some((a) => uses(a, field)) : arg.some((p) => typeof p !== "string" && p.field === field);

export function checkGroups(entries: ArgEntry[], input: unknown, fields: Record<string, ScalarType> | undefined, ctx: RuleContext): void {
  if (!fields) return; // the input schema's own problems are reported already
  const at = (p: string) => `${ctx.pointer}/exec/argv${p}`;
  const declared = input;
  const required = new Set(declared === undefined ? Object.keys(fields) : isObject(declared) ? (stringsOf(declared.required) ?? []) : []);
  entries.forEach((entry, i) => {
    if (!isGroup(entry)) return;
    const field = entry.if;
    const type = fields[field];
    if (type === undefined) {
      const hint = declared === undefined ? "; declare it in the tool's input schema as an optional property" : "";
      ctx.report("KV327", `argument group condition '${field}' is not a property of the input schema${hint}`, at(`/${i}/if`));
      return;
    }
    if (required.has(field)) {
      ctx.report("KV328", `argument group condition '${field}' is a required field, so the group would always be added; leave '${field}' out of 'required' or write its arguments unconditionally`, at(`/${i}/if`));
    }
    if (type === "boolean") {
      entry.argv.forEach((arg, j) => {
        if (arg.some((p) => typeof p !== "string")) ctx.report("KV330", `arguments added by boolean '${field}' must be fixed text (like "--ignore-case"), not a placeholder`, at(`/${i}/argv/${j}`));
      });
    } else if (!uses(entry, field)) {
      ctx.report("KV331", `the group conditioned by optional ${type} '${field}' never renders {${field}}; an optional scalar adds the arguments that carry its value (a flag belongs to an optional boolean)`, at(`/${i}/if`));
    }
  });
  // An optional field appears only inside the groups it conditions: elsewhere its absence would leave a hole.
  for (const field of groupFields(entries)) {
    if (required.has(field) || fields[field] === undefined) continue;
    entries.forEach((entry, i) => {
      if (isGroup(entry) ? entry.if !== field && uses(entry, field) : uses(entry, field)) {
        ctx.report("KV329", `optional field '${field}' is used outside the group it conditions; an absent value must leave no argument behind`, at(`/${i}`));
      }
    });
  }
}
