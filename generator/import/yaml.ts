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

/** Whether a node's JSON would fit in `budget` characters; stops counting as soon as it does not. */
function small(node: unknown, budget: number): boolean {
  let left = budget;
  const walk = (n: unknown): boolean => {
    if (isScalar(n)) return (left -= String(n.value).length + 3) >= 0;
    if (isMap(n)) return n.items.every((p) => walk(p.key) && walk(p.value)) && (left -= 2) >= 0;
    if (isSeq(n)) return n.items.every(walk) && (left -= 2) >= 0;
    return (left -= 4) >= 0;
  };
  return walk(node);
}

/**
 * Short collections are written in flow style: `{ type: string }` rather than a block. A collection
 * inside a short one is short too, so only the outermost ones are measured (a map whose keys carry
 * comments stays a block, as comments need lines of their own).
 */
function flowSmall(node: unknown, inSmall: boolean): void {
  if (isMap(node)) {
    const short = inSmall || small(node, FLOW_WIDTH - 20);
    if (short && !node.items.some((p) => isScalar(p.key) && (p.key.commentBefore || p.key.comment))) node.flow = true;
    for (const pair of node.items) {
      flowSmall(pair.key, short);
      flowSmall(pair.value, short);
    }
  } else if (isSeq(node)) {
    const short = inSmall || small(node, FLOW_WIDTH - 20);
    if (short) node.flow = true;
    for (const item of node.items) flowSmall(item, short);
  }
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
  flowSmall(doc.contents, false);
  const text = doc.toString({ lineWidth: 110, minContentWidth: 40, flowCollectionPadding: true });
  return text.endsWith("\n") ? text : `${text}\n`;
}
