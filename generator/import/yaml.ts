// Writes the imported spec as YAML for review: a header naming the source, base URL, secrets and
// skipped operations; each tool's notes above it; each input's place beside it. Short schemas are
// written in flow style, as hand-written specs are.
import { Document, isMap, isScalar, isSeq, type Scalar, type YAMLMap } from "yaml";
import type { Json } from "../../templates/runtime/types.js";
import type { Doc } from "./read.js";
import type { ImportedTool } from "./tool.js";
import { cleanText } from "./describe.js";

interface Meta {
  file: string;
  out: string;
  title: string;
  apiVersion: string;
  version: string;
  profile: string;
}

const FLOW_WIDTH = 90;
const FLOW_BUDGET = FLOW_WIDTH - 20;

function header(server: string, tools: ImportedTool[], skipped: Array<{ operation: string; reason: string }>, meta: Meta): string[] {
  const lines = [
    ` Imported by \`kervan import\` from ${meta.file} (${meta.title}${meta.apiVersion ? ` ${meta.apiVersion}` : ""}, ${meta.version.startsWith("2") ? "Swagger" : "OpenAPI"} ${meta.version}), profile ${meta.profile}.`,
    " Review it like code: tool names, descriptions, and what each tool may send where.",
    ` Re-import after the API changes: kervan import ${meta.file} --out ${meta.out} (prints the changelog).`,
  ];
  const base = tools[0]?.tool.http as Record<string, Json> | undefined;
  if (base) lines.push(` Base URL ${base.baseUrl}; ${base.baseUrlEnv} points the server elsewhere.`);
  const notes = [...new Set(tools.map((t) => t.baseNote).filter(Boolean))];
  for (const n of notes) lines.push(` Note: ${n}: set ${base?.baseUrlEnv} before starting the server.`);
  const secrets = new Map<string, string>();
  for (const t of tools) for (const s of t.secrets) secrets.set(s.env, `${s.holds} [scheme ${s.scheme}]`);
  if (secrets.size) {
    lines.push(" Secrets, read from the environment at startup:");
    for (const [env, holds] of [...secrets.entries()].sort()) lines.push(`   ${env}: ${holds}`);
  } else lines.push(" Secrets: none.");
  if (skipped.length) {
    lines.push(` Skipped operations (${skipped.length}):`);
    for (const s of skipped) lines.push(`   ${s.operation}: ${s.reason}`);
  }
  void server;
  return lines;
}

/**
 * Short collections are written in flow style: `{ type: string }` rather than a block. Returns the
 * node's length as flow text, roughly (each scalar and its punctuation), measured bottom-up in one
 * pass; a collection within FLOW_BUDGET becomes flow unless one of its keys carries a comment (a
 * comment needs a line of its own).
 */
function flowSmall(node: unknown): number {
  if (isScalar(node)) return String(node.value).length + 3;
  if (isMap(node)) {
    let size = 2;
    for (const pair of node.items) size += flowSmall(pair.key) + flowSmall(pair.value);
    if (size <= FLOW_BUDGET && !node.items.some((p) => isScalar(p.key) && (p.key.commentBefore || p.key.comment))) node.flow = true;
    return size;
  }
  if (isSeq(node)) {
    let size = 2;
    for (const item of node.items) size += flowSmall(item);
    if (size <= FLOW_BUDGET) node.flow = true;
    return size;
  }
  return 4;
}

/** The spec as data: what renderSpec writes and what the check stage judges. */
export function specData(api: Doc, server: string, tools: ImportedTool[]): Json {
  const instructions = cleanText(api.info?.description, 600);
  return {
    server: {
      name: server,
      version: "0.1.0",
      title: cleanText(api.info?.title, 120) || server,
      ...(instructions ? { instructions } : {}),
    },
    tools: tools.map((t) => t.tool),
  };
}

export function renderSpec(api: Doc, server: string, tools: ImportedTool[], skipped: Array<{ operation: string; reason: string }>, meta: Meta): string {
  const doc = new Document(specData(api, server, tools), { aliasDuplicateObjects: false });
  doc.commentBefore = ` yaml-language-server: $schema=../kervan.schema.json\n${header(server, tools, skipped, meta).join("\n")}`;
  const list = doc.get("tools", true);
  tools.forEach((t, i) => {
    const props = doc.getIn(["tools", i, "input", "properties"], true);
    if (isMap(props)) {
      for (const pair of (props as YAMLMap).items) {
        const key = pair.key as Scalar;
        const place = t.places[String(key.value)];
        if (place) key.commentBefore = ` ${place}`;
      }
    }
    if (isSeq(list) && t.notes.length) {
      const item = list.items[i] as YAMLMap;
      item.commentBefore = t.notes.map((n) => ` ${n}`).join("\n");
    }
  });
  flowSmall(doc.contents);
  const text = doc.toString({ lineWidth: 110, minContentWidth: 40, flowCollectionPadding: true });
  return text.endsWith("\n") ? text : `${text}\n`;
}
