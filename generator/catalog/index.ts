// The search index of a catalog server (server.exposure: catalog), built at generation time and
// embedded in the bundle. Each operation is a document of weighted fields (BM25F): its name, title
// and summary weigh most, then its HTTP path and the method's meaning, its tags, the rest of its
// description and its parameter names. The scorer is ours (templates/runtime/catalog/search.ts):
// with the weights precomputed here, a query at run time is a sum over a few postings lists, and the
// server loads no search library and builds nothing at start (a library's index would be rebuilt
// from its serialized form when the server starts).
import type { Json } from "../../templates/runtime/types.js";
import type { CatalogEntry, CatalogIndex } from "../../templates/runtime/catalog/types.js";
import { LIST_MARK, LIST_WORDS, METHOD_WORDS, READ_MARK, terms, words } from "../../templates/runtime/catalog/text.js";
import type { ServerIR, ToolIR } from "../model/ir.js";
import { kindFor } from "../kinds/index.js";
import type { FactsShape } from "../kinds/types.js";
import { isObject } from "../shared/object.js";
import { byCodeUnit } from "../shared/order.js";
import { relatedTable } from "./related.js";

const K1 = 1.2;
const B = 0.75;
const SUMMARY_CHARS = 120;
const DESCRIPTION_CHARS = 400;

/** The field weights of a document. */
const BOOST = { name: 3, title: 2.5, summary: 2, path: 1.5, method: 1, tags: 1.5, description: 0.4, params: 0.5 } as const;

/** Fields counted in a document's length: a long description or many parameters do not make an operation less relevant. */
const MEASURED = new Set(["name", "title", "summary", "path", "method", "tags"]);

/** The first sentence of a description (or the title), on one line, clipped. */
export function summaryOf(tool: Pick<ToolIR, "title" | "description">): string {
  const first = tool.description.replace(/\s+/g, " ").trim().split(/(?<=[.!?])\s/)[0] ?? "";
  const s = first || tool.title || "";
  return s.length > SUMMARY_CHARS ? `${s.slice(0, SUMMARY_CHARS - 1)}…` : s;
}

function typeOf(schema: Json | undefined): string {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return "any";
  if (Array.isArray(schema.enum) && schema.enum.length <= 4) return schema.enum.map((v) => JSON.stringify(v)).join("|");
  const t = schema.type;
  if (t === "array") return `${typeOf(schema.items)}[]`;
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.join("|");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  return "any";
}

/** The required inputs with their types, and how many optional ones there are: `owner: string, repo: string, +3 optional`. */
export function signatureOf(tool: Pick<ToolIR, "inputSchema">): string {
  const props = propertiesOf(tool);
  const required = new Set(Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.map(String) : []);
  const names = Object.keys(props);
  const parts = names.filter((n) => required.has(n)).map((n) => `${n}: ${typeOf(props[n])}`);
  const optional = names.length - parts.length;
  if (optional > 0) parts.push(`+${optional} optional`);
  return parts.join(", ");
}

/** A GET whose path ends in a plural (`/repos/{owner}/{repo}/pulls`, `.../calendarList`) or whose name says list. */
function isCollection(method: string, path: string, name: string): boolean {
  if (method !== "GET") return false;
  const last = path.split("/").filter(Boolean).pop() ?? "";
  return (!last.startsWith("{") && /(s|List)$/.test(last)) || words(name).includes("list");
}

/** The properties of a tool's input schema. */
function propertiesOf(tool: Pick<ToolIR, "inputSchema">): Record<string, Json> {
  const props = tool.inputSchema.properties;
  return isObject(props) ? props : {};
}

/** A document's text by field (every field of BOOST). */
function fieldsOf(tool: ToolIR): Record<string, string> {
  const facts: FactsShape = kindFor(tool).facts(tool);
  const method = typeof facts.method === "string" ? facts.method.toUpperCase() : "";
  const path = typeof facts.path === "string" ? facts.path : "";
  const props = Object.keys(propertiesOf(tool));
  const summary = summaryOf(tool);
  return {
    name: tool.name,
    title: tool.title ?? "",
    summary,
    path,
    method: isCollection(method, path, tool.name) ? `${METHOD_WORDS[method]} ${LIST_WORDS}` : (METHOD_WORDS[method] ?? ""),
    tags: (tool.tags ?? []).join(" "),
    description: tool.description.slice(summary.length, summary.length + DESCRIPTION_CHARS),
    params: props.join(" "),
  } satisfies Record<keyof typeof BOOST, string>;
}

/** Term frequencies of one document, each field's occurrences counted at its weight, and its weighted length. */
function document(tool: ToolIR): { tf: Map<string, number>; length: number } {
  const tf = new Map<string, number>();
  let length = 0;
  const fields = fieldsOf(tool);
  if (fields.method.endsWith(LIST_WORDS)) tf.set(LIST_MARK, 1);
  if (fields.method.startsWith(METHOD_WORDS.GET!)) tf.set(READ_MARK, 1);
  for (const [field, weight] of Object.entries(BOOST)) {
    for (const term of terms(fields[field])) {
      tf.set(term, (tf.get(term) ?? 0) + weight);
      if (MEASURED.has(field)) length += weight;
    }
  }
  return { tf, length };
}

/** The tools a catalog reaches: every tool of the server, in name order. */
export function catalogEntries(server: ServerIR): CatalogEntry[] {
  return server.tools.map((t) => [t.name, summaryOf(t), signatureOf(t)]);
}

export function buildIndex(server: ServerIR): CatalogIndex {
  const docs = server.tools.map(document);
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(n, 1) || 1;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const postings: Record<string, number[]> = {};
  for (const term of [...df.keys()].sort(byCodeUnit)) {
    const idf = Math.log(1 + (n - df.get(term)! + 0.5) / (df.get(term)! + 0.5));
    const list: number[] = [];
    docs.forEach((d, i) => {
      const tf = d.tf.get(term);
      if (tf === undefined) return;
      const w = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avg));
      list.push(i, Math.max(1, Math.round(w * 1000)));
    });
    postings[term] = list;
  }
  return { ops: catalogEntries(server), postings, related: relatedTable(new Set(Object.keys(postings))) };
}
