// load: YAML/JSON text -> plain data with source positions kept for every JSON pointer.
import { readFileSync } from "node:fs";
import { dirname, resolve, relative } from "node:path";
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import type { Diagnostic } from "./model/diagnostic.js";
import type { LoadedSpec, Position, SourceFile } from "./model/spec.js";
import { sha256 } from "./shared/hash.js";

export function escapePointer(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

interface Parsed {
  doc: unknown;
  positions: Record<string, Position>;
  keyPositions: Record<string, Position>;
  errors: { message: string; pos: Position }[];
}

function parseWithPositions(text: string): Parsed {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true, merge: true });
  const positions: Record<string, Position> = {};
  const keyPositions: Record<string, Position> = {};
  const at = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const walk = (node: unknown, pointer: string): void => {
    if (!node || typeof node !== "object") return;
    const n = node as Node;
    if (n.range) positions[pointer] = at(n.range[0]);
    if (isMap(n)) {
      for (const pair of n.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        const child = `${pointer}/${escapePointer(key)}`;
        const keyNode = pair.key as Node | null;
        if (keyNode?.range) keyPositions[child] = at(keyNode.range[0]);
        if (pair.value) walk(pair.value, child);
        else if (keyNode?.range) positions[child] = at(keyNode.range[0]);
      }
    } else if (isSeq(n)) {
      n.items.forEach((item, i) => walk(item, `${pointer}/${i}`));
    }
  };
  walk(document.contents, "");
  const errors = document.errors.map((e) => ({ message: e.message.split("\n")[0], pos: at(e.pos[0]) }));
  const doc = errors.length ? undefined : document.toJS({ maxAliasCount: 100 });
  return { doc, positions, keyPositions, errors };
}

/** Replaces `input: "@path"` references with the referenced schema file's contents. */
function resolveIncludes(spec: LoadedSpec, diagnostics: Diagnostic[]): void {
  const doc = spec.doc as { tools?: unknown };
  if (!doc || typeof doc !== "object" || !Array.isArray(doc.tools)) return;
  doc.tools.forEach((tool: unknown, i: number) => {
    if (!tool || typeof tool !== "object") return;
    const t = tool as Record<string, unknown>;
    for (const key of ["input", "output"]) {
      const holder = key === "output" && t.output && typeof t.output === "object" ? (t.output as Record<string, unknown>) : t;
      const field = key === "output" ? "schema" : "input";
      const value = holder[field];
      if (typeof value !== "string" || !value.startsWith("@")) continue;
      const pointer = key === "output" ? `/tools/${i}/output/schema` : `/tools/${i}/input`;
      const target = resolve(dirname(spec.file), value.slice(1));
      const pos = spec.positions[pointer] ?? { line: 1, column: 1 };
      let text: string;
      try {
        text = readFileSync(target, "utf8");
      } catch {
        diagnostics.push(diag("KV102", `cannot read schema file ${value.slice(1)} (resolved to ${relative(process.cwd(), target) || target})`, spec.file, pos, pointer));
        continue;
      }
      const parsed = parseWithPositions(text);
      if (parsed.errors.length) {
        const e = parsed.errors[0];
        diagnostics.push(diag("KV101", `schema file ${value.slice(1)} is not valid YAML/JSON: ${e.message} (at ${e.pos.line}:${e.pos.column})`, spec.file, pos, pointer));
        continue;
      }
      holder[field] = parsed.doc;
      spec.includes[relative(dirname(spec.file), target).split("\\").join("/")] = sha256(text);
      // Everything inside the included schema points back at the line that included it.
      for (const p of Object.keys(parsed.positions)) spec.positions[pointer + p] = pos;
      for (const p of Object.keys(parsed.keyPositions)) spec.keyPositions[pointer + p] = pos;
    }
  });
}

function diag(code: string, message: string, file: string, pos: Position, pointer: string): Diagnostic {
  return { code, severity: "error", message, location: { file, line: pos.line, column: pos.column, pointer } };
}

export function loadSource(source: SourceFile, diagnostics: Diagnostic[]): LoadedSpec {
  const parsed = parseWithPositions(source.text);
  const spec: LoadedSpec = {
    file: source.path,
    doc: parsed.doc,
    positions: parsed.positions,
    keyPositions: parsed.keyPositions,
    lines: source.text.split(/\r?\n/),
    includes: {},
    hash: sha256(source.text),
  };
  for (const e of parsed.errors) diagnostics.push(diag("KV101", `invalid YAML: ${e.message}`, source.path, e.pos, ""));
  if (!parsed.errors.length) resolveIncludes(spec, diagnostics);
  return spec;
}

export function load(sources: SourceFile[], diagnostics: Diagnostic[]): LoadedSpec[] {
  return sources.map((s) => loadSource(s, diagnostics));
}
