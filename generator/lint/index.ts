// lint: warnings about how well each tool definition tells an agent what it does and when to
// use it. Runs after check and normalize on valid specs only; `gen --strict` makes them errors.
import type { Diagnostic } from "../model/diagnostic.js";
import type { ServerIR } from "../model/ir.js";
import type { LoadedSpec } from "../model/spec.js";
import { kindFor } from "../kinds/index.js";
import type { RawTool } from "../kinds/types.js";
import { at } from "../shared/locate.js";
import { isObject } from "../shared/object.js";
import type { LintServer, LintTool, Report, Rule } from "./types.js";
import { descriptionRules } from "./rules/description.js";
import { paramRules } from "./rules/params.js";
import { annotationRules } from "./rules/annotations.js";
import { outputRules } from "./rules/output.js";
import { serverRules } from "./rules/server.js";
import { sandboxRules } from "./rules/sandbox.js";

/** The rule table, in code order. */
export const RULES: Rule[] = [...descriptionRules, ...paramRules, ...annotationRules, ...outputRules, ...sandboxRules, ...serverRules];

function lintServer(spec: LoadedSpec, server: ServerIR): LintServer {
  const doc = spec.doc;
  const raw: RawTool[] = isObject<unknown>(doc) && Array.isArray(doc.tools) ? doc.tools.map((t) => (isObject(t) ? t : {})) : [];
  const tools: LintTool[] = server.tools
    .map((ir): LintTool => {
      const r = raw[Number(ir.origin.pointer.split("/").pop())];
      const kind = kindFor(ir);
      const builtin = kind.builtin === true;
      return {
        name: ir.name,
        ...(ir.title !== undefined ? { title: ir.title } : {}),
        ...(typeof r.description === "string" || builtin ? { description: typeof r.description === "string" ? r.description : ir.description } : {}),
        annotationsGiven: builtin || r.annotations !== undefined,
        annotations: ir.annotations,
        inputSchema: ir.inputSchema,
        ...(ir.outputSchema ? { outputSchema: ir.outputSchema } : {}),
        kind: ir.kind,
        builtin,
        raw: r,
        ir,
        effects: kind.effects(ir),
        pointer: ir.origin.pointer,
      };
    })
    .sort((a, b) => Number(a.pointer.slice(7)) - Number(b.pointer.slice(7)));
  return { spec, server, tools };
}

export function lint(specs: LoadedSpec[], servers: ServerIR[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const server of servers) {
    const spec = specs.find((s) => s.file === server.origin.file);
    // The command-line form is linted as a spec is (its flags become one: cli/tool-flags.ts).
    if (!spec) continue;
    const s = lintServer(spec, server);
    for (const rule of RULES) {
      const report: Report = (message, pointer, extra = {}) => out.push(at(spec, rule.code, message, pointer, { ...extra, severity: "warning" }));
      if ("tool" in rule) for (const t of s.tools) rule.tool(t, s, report);
      else rule.server(s, report);
    }
  }
  return out;
}

/** `--strict`: every warning becomes an error. */
export const strict = (ds: Diagnostic[]): Diagnostic[] => ds.map((d) => (d.severity === "warning" ? { ...d, severity: "error" } : d));
