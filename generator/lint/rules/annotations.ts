// KV606: the spec states the tool's annotations (the kind's defaults are guesses a reviewer
// should confirm). KV607: the annotations do not contradict what the tool visibly does, as its
// kind's effects say (`changes`, `readsOnly`).
import type { ToolRule, LintTool } from "../types.js";
import { isObject } from "../../shared/object.js";

/** Why the annotations contradict the tool, and which hint is wrong. */
function contradiction(t: LintTool): [string, string] | undefined {
  const a = t.annotations;
  if (a.readOnlyHint && a.destructiveHint) return ["readOnlyHint and destructiveHint are both true", "destructiveHint"];
  const { changes, readsOnly } = t.effects;
  if (changes && a.readOnlyHint) return [`the tool ${changes} but is marked readOnlyHint: true`, "readOnlyHint"];
  if (readsOnly && a.destructiveHint) return [`the tool ${readsOnly} but is marked destructiveHint: true`, "destructiveHint"];
  return undefined;
}

export const annotationRules: ToolRule[] = [
  {
    code: "KV606",
    summary: "the spec states the tool's annotations",
    tool(t, _s, report) {
      if (t.annotationsGiven) return;
      report(`tool '${t.name}' gives no annotations; clients fall back to guesses about what it changes`, `${t.pointer}/name`, {
        suggestion: "add `annotations: { readOnlyHint, destructiveHint, idempotentHint, openWorldHint }`",
      });
    },
  },
  {
    code: "KV607",
    summary: "annotations agree with what the tool visibly does (its kind's effects: HTTP method, command, script)",
    tool(t, _s, report) {
      const found = contradiction(t);
      if (!found) return;
      const [why, hint] = found;
      const given = isObject(t.raw.annotations) ? t.raw.annotations : {};
      report(`annotations of '${t.name}' contradict the tool: ${why}`, hint in given ? `${t.pointer}/annotations/${hint}` : `${t.pointer}/name`, {
        atKey: true,
        suggestion: "correct the annotations (or the request/command) so a client can trust them",
      });
    },
  },
];
