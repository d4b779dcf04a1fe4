// A top-level list of named entries (prompts, resources): each key used once, and each entry the
// document schema found whole checked by its own rules.
import type { Json } from "../../templates/runtime/types.js";
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";
import { isObject } from "../shared/object.js";
import { at } from "../shared/locate.js";

export interface ListRule {
  /** The list's key in the spec, e.g. "prompts". */
  list: string;
  /** The entry's unique key, e.g. "name", and how its diagnostic names it, e.g. "prompt name". */
  key: string;
  label: string;
  code: string;
  check: (entry: Record<string, Json>, pointer: string) => void;
}

export function checkList(spec: LoadedSpec, entries: unknown, rule: ListRule, whole: (pointer: string) => boolean, out: Diagnostic[]): void {
  if (!Array.isArray(entries)) return;
  const seen = new Map<string, number>();
  entries.forEach((entry: Json, i: number) => {
    if (!isObject(entry)) return;
    const value = entry[rule.key];
    if (typeof value === "string") {
      if (seen.has(value)) out.push(at(spec, rule.code, `${rule.label} '${value}' is used twice (first at /${rule.list}/${seen.get(value)})`, `/${rule.list}/${i}/${rule.key}`));
      else seen.set(value, i);
    }
    if (whole(`/${rule.list}/${i}`)) rule.check(entry, `/${rule.list}/${i}`);
  });
}
