// The generator's own check stage over the imported spec: which tools it would refuse, and why.
// The check reads the spec's data as the load stage would hand it over, without writing the YAML
// and parsing it back (the written text carries the same data: yaml.ts renders exactly this).
import type { Json } from "../../templates/runtime/types.js";
import type { LoadedSpec } from "../model/spec.js";
import { checkStage } from "../pipeline.js";
import type { Build } from "../shared/build.js";

export interface Refusals {
  /** Tool index -> the first error's code and message. */
  tools: Map<number, string>;
  /** An error outside any tool. */
  spec?: string;
}

/** The refusals of the check stage, with the build's compiler (judgements made while converting stand). */
export async function verify(data: Json, count: number, build: Build): Promise<Refusals> {
  // A JSON round trip gives the plain data a YAML reader would: no undefined members, no shared objects.
  const doc: unknown = JSON.parse(JSON.stringify(data));
  const spec: LoadedSpec = { file: "imported.yaml", doc, positions: {}, keyPositions: {}, lines: [], includes: {}, hash: "" };
  return refusalsOf(await checkStage([spec], build), count);
}

function refusalsOf(diagnostics: Awaited<ReturnType<typeof checkStage>>, count: number): Refusals {
  const tools = new Map<number, string>();
  let refused: string | undefined;
  for (const d of diagnostics) {
    if (d.severity !== "error") continue;
    const m = /^\/tools\/(\d+)(\/|$)/.exec(d.location.pointer);
    const at = m ? d.location.pointer.slice(m[0].length - (m[2] ? 1 : 0)) : "";
    if (m && Number(m[1]) < count) {
      if (!tools.has(Number(m[1]))) tools.set(Number(m[1]), `kervan would refuse it: ${d.code} ${d.message}${at ? ` (at ${at})` : ""}`);
    } else refused ??= `${d.code} ${d.message} (at ${d.location.pointer || "/"})`;
  }
  return { tools, ...(refused ? { spec: refused } : {}) };
}
