// An inner call's request log line and span: the same fields a flat tools/call of the operation
// writes (method tools/call, the operation's name, outcome, duration), marked as made from execute.
import type { Core } from "../core.js";
import { endInnerRequest, RequestNote } from "../request-log.js";

let seq = 0;

/** Starts an inner call's line and span; the returned function ends them with the outcome. */
export function innerCallLog(core: Core, name: string): (outcome: string) => void {
  const note = new RequestNote();
  note.method = "tools/call";
  note.tool = name;
  note.id = `execute-${++seq}`;
  const end = core.telemetry?.begin({ method: "tools/call", tool: name, id: note.id, transport: "pipe" });
  return (outcome) => {
    endInnerRequest(note, outcome);
    end?.(outcome === "ok" ? {} : outcome === "tool_error" ? { errorType: "tool_error" } : { errorType: outcome });
  };
}
