// The context a kind's rules and normalize receive for one tool: the spec, the tool's pointer, and
// a report that places each diagnostic at its line (shared/locate.ts). The check and normalize
// stages both hand it to the kinds.
import type { Diagnostic } from "../model/diagnostic.js";
import type { LoadedSpec } from "../model/spec.js";
import { at } from "../shared/locate.js";
import type { RuleContext } from "./types.js";

export function contextFor(spec: LoadedSpec, pointer: string, out: Diagnostic[]): RuleContext {
  return { spec, pointer, report: (code, message, p, extra) => out.push(at(spec, code, message, p, extra)) };
}
