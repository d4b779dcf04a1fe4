// KV605: most input properties carry a description. TDQS counts a property as described when its
// `description` is non-empty and treats coverage above 80% as the schema doing its job.
import type { Json } from "../../../templates/runtime/types.js";
import type { ToolRule } from "../types.js";
import { isObject } from "../../shared/object.js";

export const MIN_COVERAGE = 80;

export const paramRules: ToolRule[] = [
  {
    code: "KV605",
    summary: `at least ${MIN_COVERAGE}% of input properties have a description`,
    tool(t, _s, report) {
      if (t.builtin) return;
      const props = isObject(t.inputSchema.properties) ? t.inputSchema.properties : {};
      const names = Object.keys(props);
      if (!names.length) return;
      const described = (n: string) => {
        const prop = props[n];
        return isObject(prop) && typeof prop.description === "string" && prop.description.trim() !== "";
      };
      const bare = names.filter((n) => !described(n));
      const coverage = Math.round(((names.length - bare.length) / names.length) * 100);
      if (coverage >= MIN_COVERAGE) return;
      const where = t.raw.input !== undefined ? `${t.pointer}/input/properties/${bare[0]}` : `${t.pointer}/name`;
      report(`${coverage}% of the input properties of '${t.name}' have a description (under ${MIN_COVERAGE}%): ${bare.join(", ")} ${bare.length === 1 ? "lacks" : "lack"} one`, where, {
        atKey: t.raw.input !== undefined,
        suggestion: t.raw.input !== undefined ? "describe each property: its meaning, format and an example" : "give an `input` schema whose properties have descriptions",
      });
    },
  },
];
