// What a server's tools/list costs a model, counted at build time: every tool's descriptor exactly as
// the runtime lists it (2026-07-28 shape, templates/runtime/tools.ts), as JSON, in tokens of the
// o200k_base encoding (gpt-tokenizer). Tokenizers differ between models: the count is an estimate.
import type { ToolDef, Validator } from "../../templates/runtime/types.js";
import { describeTool } from "../../templates/runtime/tools.js";
import { catalogTools } from "../../templates/runtime/catalog/tools.js";
import { codeTools } from "../../templates/runtime/codemode/tools.js";
import type { ServerIR, ToolIR } from "../model/ir.js";
import type { WorkerPool } from "../shared/worker-pool.js";
import { countTokens, ENCODING, type Counter } from "./tokenizer.js";

export { ENCODING, type Counter };

export interface Listing {
  encoding: typeof ENCODING;
  /** Tokens of the whole tools/list listing (the sum of the listed tools'). */
  total: number;
  /** Tokens of each listed tool's descriptor, by name. */
  tools: Record<string, number>;
}

const none: Validator = () => true;

/** A tool as the runtime's ToolDef, for its descriptor (no handler or validator is ever run). */
function asToolDef(t: ToolIR): ToolDef {
  return {
    name: t.name,
    ...(t.title !== undefined ? { title: t.title } : {}),
    description: t.description,
    inputSchema: t.inputSchema,
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
    annotations: { ...(t.title ? { title: t.title } : {}), ...t.annotations },
    validateInput: none,
    maxOutputChars: t.maxOutputChars,
    handler: async () => ({}),
  };
}

/** A tool's descriptor as tools/list shows it, as JSON: the text whose tokens are counted. */
const descriptorText = (tool: ToolDef): string => JSON.stringify(describeTool(tool, "2026-07-28"));

export function toolTokens(tool: ToolDef, count: Counter = countTokens): number {
  return count(descriptorText(tool));
}

/** The tools tools/list shows: every tool, or under exposure: catalog the catalog tools and `expose: always` ones. */
export function listedTools(server: ServerIR): ToolDef[] {
  const defs = server.tools.map(asToolDef);
  if (server.exposure !== "catalog" && server.exposure !== "code") return defs;
  const always = new Set(server.tools.filter((t) => t.expose === "always").map((t) => t.name));
  const front = server.exposure === "code" ? codeTools(defs, server.maxOutputChars) : catalogTools(defs, server.maxOutputChars);
  return [...front, ...defs.filter((d) => always.has(d.name))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function listingOf(server: ServerIR, count: Counter = countTokens): Listing {
  const tools: Record<string, number> = {};
  let total = 0;
  for (const t of listedTools(server)) total += tools[t.name] = toolTokens(t, count);
  return { encoding: ENCODING, total, tools };
}

/** Each tool's own descriptor in tokens: its listing cost as a flat tool, or what describe_operation shows of it. */
export function descriptorTokens(tool: ToolIR, count: Counter = countTokens): number {
  return toolTokens(asToolDef(tool), count);
}

/**
 * The counts a server's manifest takes (its listing, each tool's descriptor), made on a worker of
 * the build's pool while the caller goes on: the tokenizer loads there, not on the thread that
 * emits. The counter answers each of those texts from the worker's counts; another text, or every
 * text should the worker fail, is counted here. The same tokenizer either way: the same numbers.
 */
export function tokenCounts(server: ServerIR, pool: WorkerPool): Promise<Counter> {
  const texts = [...new Set([...listedTools(server), ...server.tools.map(asToolDef)].map(descriptorText))];
  const job = pool.run("tokens", { texts });
  return job.result.then(
    (counts) => {
      const byText = new Map(texts.map((text, i) => [text, counts[i]]));
      return (text) => byText.get(text) ?? countTokens(text);
    },
    () => countTokens,
  );
}
