// What a server's tools/list costs a model, counted at build time: every tool's descriptor exactly as
// the runtime lists it (2026-07-28 shape, templates/runtime/tools.ts), as JSON, in tokens of the
// o200k_base encoding (gpt-tokenizer). Tokenizers differ between models: the count is an estimate.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { ToolDef, Validator } from "../../templates/runtime/types.js";
import { describeTool } from "../../templates/runtime/tools.js";
import { catalogTools } from "../../templates/runtime/catalog/tools.js";
import { codeTools } from "../../templates/runtime/codemode/tools.js";
import type { ServerIR, ToolIR } from "../model/ir.js";

export const ENCODING = "o200k_base";

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

export function toolTokens(tool: ToolDef): number {
  return countTokens(JSON.stringify(describeTool(tool, "2026-07-28")));
}

/** The tools tools/list shows: every tool, or under exposure: catalog the catalog tools and `expose: always` ones. */
export function listedTools(server: ServerIR): ToolDef[] {
  const defs = server.tools.map(asToolDef);
  if (server.exposure !== "catalog" && server.exposure !== "code") return defs;
  const always = new Set(server.tools.filter((t) => t.expose === "always").map((t) => t.name));
  const front = server.exposure === "code" ? codeTools(defs, server.maxOutputChars) : catalogTools(defs, server.maxOutputChars);
  return [...front, ...defs.filter((d) => always.has(d.name))].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function listingOf(server: ServerIR): Listing {
  const tools: Record<string, number> = {};
  let total = 0;
  for (const t of listedTools(server)) total += tools[t.name] = toolTokens(t);
  return { encoding: ENCODING, total, tools };
}

/** Each tool's own descriptor in tokens: its listing cost as a flat tool, or what describe_operation shows of it. */
export function descriptorTokens(tool: ToolIR): number {
  return toolTokens(asToolDef(tool));
}
