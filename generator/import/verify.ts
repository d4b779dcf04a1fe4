// The generator's own check stage over the imported spec: which tools it would refuse, and why.
import { checkSources } from "../pipeline.js";

export interface Refusals {
  /** Tool index -> the first error's code and message. */
  tools: Map<number, string>;
  /** An error outside any tool. */
  spec?: string;
}

export function verify(text: string, count: number): Refusals {
  const { diagnostics } = checkSources([{ path: "imported.yaml", text }]);
  const tools = new Map<number, string>();
  let spec: string | undefined;
  for (const d of diagnostics) {
    if (d.severity !== "error") continue;
    const m = /^\/tools\/(\d+)(\/|$)/.exec(d.location.pointer);
    const at = m ? d.location.pointer.slice(m[0].length - (m[2] ? 1 : 0)) : "";
    if (m && Number(m[1]) < count) {
      if (!tools.has(Number(m[1]))) tools.set(Number(m[1]), `kervan would refuse it: ${d.code} ${d.message}${at ? ` (at ${at})` : ""}`);
    } else spec ??= `${d.code} ${d.message} (at ${d.location.pointer || "/"})`;
  }
  return { tools, ...(spec ? { spec } : {}) };
}
