// load: YAML/JSON text -> plain data with source positions kept for every JSON pointer.
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, resolve, relative, sep } from "node:path";
import { isAlias, isMap, isNode, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Pair } from "yaml";
import type { Diagnostic } from "./model/diagnostic.js";
import type { LoadedSpec, Position, SourceFile } from "./model/spec.js";
import { sha256 } from "./shared/hash.js";
import { isObject } from "./shared/object.js";
import { inspectAliases, unshare } from "./shared/yaml-aliases.js";
import { keySegment, lazyReadings } from "./shared/yaml-positions.js";
import { READ_LIMITS, ReadRefused, readRegularBytes, readRegularFile, sizeText } from "./shared/read-bounded.js";

export interface Parsed {
  doc: unknown;
  positions: Record<string, Position>;
  keyPositions: Record<string, Position>;
  /** Parse errors; `code` is set for documents that parse but are refused (aliases, keys). */
  errors: { message: string; pos: Position; code?: string }[];
  readings: SourceReadings;
}

/** What the source text says beyond the data, for hints (see LoadedSpec). */
type SourceReadings = Pick<LoadedSpec, "unquoted" | "flowSplits">;

/** What a YAML merge key accepts: a mapping, an alias of one, or a list of those. */
function mergeable(value: unknown, document: Document): boolean {
  const map = (v: unknown) => isMap(v) || (isAlias(v) && isMap(v.resolve(document)));
  return map(value) || (isSeq(value) && value.items.every(map));
}

const isMergeKey = (v: unknown) => v === "<<" || (typeof v === "symbol" && v.description === "<<");

/** Keys YAML allows but a spec does not: a list, a mapping or an alias as a key; a merge key (<<) on anything but mappings. */
function keyProblems(document: Document, at: (offset: number) => Position): Parsed["errors"] {
  const errors: Parsed["errors"] = [];
  const visit = (node: unknown): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyNode = isNode(pair.key) ? pair.key : null;
        if (keyNode && !isScalar(keyNode)) errors.push({ code: "KV108", message: "a key must be plain text, not a list, a mapping or an alias", pos: at(keyNode.range?.[0] ?? 0) });
        else if (isScalar(keyNode) && isMergeKey(keyNode.value) && !mergeable(pair.value, document)) {
          errors.push({ code: "KV108", message: "a merge key (<<) takes a mapping, an alias of one, or a list of those", pos: at((isNode(pair.value) ? pair.value.range?.[0] : undefined) ?? keyNode.range?.[0] ?? 0) });
        }
        if (pair.value) visit(pair.value);
      }
    } else if (isSeq(node)) node.items.forEach(visit);
  };
  visit(document.contents);
  return errors;
}

/**
 * Parses YAML/JSON text into data and where each pointer sits. `lazy` (a spec: large, and asked
 * for few places) finds each place when asked (shared/yaml-positions.ts); otherwise (an included
 * schema, whose places are all copied into its spec) one walk records every place up front.
 */
export function parseWithPositions(text: string, lazy: boolean): Parsed {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true, merge: true, logLevel: "error" });
  const at = (offset: number): Position => {
    const p = lineCounter.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const keyErrors = keyProblems(document, at);
  const { positions, keyPositions, ...readings } = lazy ? lazyReadings(document, lineCounter, text) : eagerReadings(document, at, text);
  // An alias is written `*name`: a text without `*` has none, and the alias walk is skipped.
  return finish(document, positions, keyPositions, readings, keyErrors, at, text.includes("*"));
}

function eagerReadings(document: Document, at: (offset: number) => Position, text: string): Pick<Parsed, "positions" | "keyPositions"> & Required<SourceReadings> {
  const positions: Record<string, Position> = {};
  const keyPositions: Record<string, Position> = {};
  const readings: Required<SourceReadings> = { unquoted: {}, flowSplits: {} };
  const source = (n: Node) => (n.range ? text.slice(n.range[0], n.range[1]) : "");
  const walk = (node: unknown, pointer: string): void => {
    if (!isNode(node)) return;
    const n = node;
    if (n.range) positions[pointer] = at(n.range[0]);
    if (isScalar(n) && n.type === "PLAIN" && typeof n.value !== "string") readings.unquoted[pointer] = source(n);
    if (isMap(n)) {
      let previous: Pair | undefined;
      for (const pair of n.items) {
        if (!isPair(pair)) continue;
        const child = `${pointer}/${keySegment(pair)}`;
        const keyNode = isNode(pair.key) ? pair.key : null;
        if (keyNode?.range) keyPositions[child] = at(keyNode.range[0]);
        // In a flow mapping `{ description: one, two }` the comma ends the value and `two` becomes a key.
        const before = previous?.value;
        if (n.flow && pair.value === null && isScalar(keyNode) && keyNode.type === "PLAIN" && isScalar(before) && before.type === "PLAIN" && previous) {
          const previousKey = isScalar(previous.key) ? String(previous.key.value) : "";
          readings.flowSplits[child] = `${previousKey}: ${JSON.stringify(`${source(before)}, ${source(keyNode)}`)}`;
        }
        if (pair.value) walk(pair.value, child);
        else if (keyNode?.range) positions[child] = at(keyNode.range[0]);
        previous = pair;
      }
    } else if (isSeq(n)) {
      n.items.forEach((item, i) => walk(item, `${pointer}/${i}`));
    }
  };
  walk(document.contents, "");
  return { positions, keyPositions, ...readings };
}

function finish(document: Document, positions: Parsed["positions"], keyPositions: Parsed["keyPositions"], readings: SourceReadings, keyErrors: Parsed["errors"], at: (offset: number) => Position, mayAlias: boolean): Parsed {
  // yaml reports its own stack overflow on very deep nesting; said plainly here.
  const plain = (m: string) => (m.startsWith("Maximum call stack size exceeded") ? "the document nests too deeply" : m.split("\n")[0]);
  const errors: Parsed["errors"] = document.errors.map((e) => ({ message: plain(e.message), pos: at(e.pos[0]) }));
  if (!errors.length) errors.push(...keyErrors);
  if (errors.length) return { doc: undefined, positions, keyPositions, errors, readings };
  // Aliases are bounded here (see load-aliases.ts), so yaml's own count, which refuses a spec that
  // merely uses an anchor a hundred times, is switched off.
  const aliases = mayAlias ? inspectAliases(document) : { any: false, problem: undefined };
  if (aliases.problem) return { doc: undefined, positions, keyPositions, errors: [{ code: "KV107", message: aliases.problem.message, pos: at(aliases.problem.offset) }], readings };
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: -1 });
  } catch (e) {
    // The checks above leave the yaml package nothing to refuse here; should it still, say so at the top.
    return { doc: undefined, positions, keyPositions, errors: [{ message: `the document cannot be read as data: ${e instanceof Error ? e.message : String(e)}`, pos: at(0) }], readings };
  }
  return { doc: aliases.any ? unshare(data) : data, positions, keyPositions, errors, readings };
}

const describe = (v: unknown) => (Array.isArray(v) ? "a list" : v === null ? "null" : typeof v === "string" ? "a string" : `a ${typeof v}`);

/**
 * Reads the file an `@path` reference names (a schema; an image, with `noun` "image file" and
 * `read` taking bytes). The path is relative to the spec's folder and must stay inside it (symbolic
 * links included), so a spec cannot pull in files from elsewhere on the machine; the file must be a
 * regular file of at most the limit `read` applies.
 */
export function readInclude<T>(
  specFile: string,
  ref: string,
  noun: string,
  read: (path: string) => T,
): { text: T; target: string } | { problem: string; code: string } {
  const folder = dirname(specFile);
  if (isAbsolute(ref)) return { code: "KV104", problem: `${noun} ${ref} is an absolute path; @file paths are relative to the spec's folder and stay inside it` };
  const target = resolve(folder, ref);
  const inside = (root: string, p: string) => {
    const r = relative(root, p);
    return r !== "" && !r.startsWith(`..${sep}`) && r !== ".." && !isAbsolute(r);
  };
  if (!inside(resolve(folder), target)) return { code: "KV104", problem: `${noun} ${ref} is outside the spec's folder; @file paths stay inside it` };
  let real: string;
  try {
    real = realpathSync(target);
  } catch {
    return { code: "KV102", problem: `cannot read ${noun} ${ref} (resolved to ${relative(process.cwd(), target) || target})` };
  }
  if (!inside(realpathSync(resolve(folder)), real)) return { code: "KV104", problem: `${noun} ${ref} links to a file outside the spec's folder; @file paths stay inside it` };
  try {
    return { text: read(real), target };
  } catch (e) {
    if (e instanceof ReadRefused) return { code: "KV105", problem: `${noun} ${ref} ${e.message}` };
    return { code: "KV102", problem: `cannot read ${noun} ${ref} (resolved to ${relative(process.cwd(), target) || target})` };
  }
}

/** Replaces `input: "@path"` references with the referenced schema file's contents. */
function resolveIncludes(spec: LoadedSpec, diagnostics: Diagnostic[]): void {
  const doc = spec.doc;
  if (!isObject<unknown>(doc) || !Array.isArray(doc.tools)) return;
  doc.tools.forEach((tool: unknown, i: number) => {
    if (!isObject<unknown>(tool)) return;
    const t = tool;
    for (const key of ["input", "output"]) {
      // An output list holds no schema: an empty holder finds none.
      const holder = key === "output" && t.output && typeof t.output === "object" ? (isObject<unknown>(t.output) ? t.output : {}) : t;
      const field = key === "output" ? "schema" : "input";
      const value = holder[field];
      if (typeof value !== "string" || !value.startsWith("@")) continue;
      const pointer = key === "output" ? `/tools/${i}/output/schema` : `/tools/${i}/input`;
      const ref = value.slice(1);
      const pos = spec.positions[pointer] ?? { line: 1, column: 1 };
      const read = readInclude(spec.file, ref, "schema file", (path) => readRegularFile(path, READ_LIMITS.schemaFileBytes));
      if ("problem" in read) {
        diagnostics.push(diag(read.code, read.problem, spec.file, pos, pointer));
        continue;
      }
      const parsed = parseWithPositions(read.text, false);
      if (parsed.errors.length) {
        const e = parsed.errors[0];
        const what = e.code ? `is refused: ${e.message}` : `is not valid YAML/JSON: ${e.message}`;
        diagnostics.push(diag(e.code ?? "KV101", `schema file ${ref} ${what} (at ${e.pos.line}:${e.pos.column})`, spec.file, pos, pointer));
        continue;
      }
      if (typeof parsed.doc !== "boolean" && (!parsed.doc || typeof parsed.doc !== "object" || Array.isArray(parsed.doc))) {
        diagnostics.push(diag("KV106", `schema file ${ref} holds ${describe(parsed.doc)}, not a JSON Schema (an object or a boolean)`, spec.file, pos, pointer));
        continue;
      }
      holder[field] = parsed.doc;
      spec.includes[relative(dirname(spec.file), read.target).split("\\").join("/")] = sha256(read.text);
      // Everything inside the included schema points back at the line that included it.
      for (const p of Object.keys(parsed.positions)) spec.positions[pointer + p] = pos;
      for (const p of Object.keys(parsed.keyPositions)) spec.keyPositions[pointer + p] = pos;
    }
  });
}

/** The image formats a prompt message may carry, told by their first bytes (never by the file name). */
const IMAGE_MAGIC: [string, (b: Buffer) => boolean][] = [
  ["image/png", (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ["image/jpeg", (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["image/gif", (b) => b.subarray(0, 6).toString("latin1") === "GIF87a" || b.subarray(0, 6).toString("latin1") === "GIF89a"],
  ["image/webp", (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP"],
];

/** Reads each prompt message's `image: "@path"` (bounded, inside the spec's folder) into spec.images. */
function resolveImages(spec: LoadedSpec, diagnostics: Diagnostic[]): void {
  const doc = spec.doc;
  if (!isObject<unknown>(doc) || !Array.isArray(doc.prompts)) return;
  doc.prompts.forEach((prompt: unknown, i: number) => {
    const messages = isObject<unknown>(prompt) ? prompt.messages : undefined;
    if (!Array.isArray(messages)) return;
    messages.forEach((m: unknown, j: number) => {
      const value = isObject<unknown>(m) ? m.image : undefined;
      if (typeof value !== "string" || !value.startsWith("@")) return; // the spec schema says what is wrong
      const pointer = `/prompts/${i}/messages/${j}/image`;
      const pos = spec.positions[pointer] ?? { line: 1, column: 1 };
      const ref = value.slice(1);
      const read = readInclude(spec.file, ref, "image file", (path) => readRegularBytes(path, READ_LIMITS.imageFileBytes));
      if ("problem" in read) return void diagnostics.push(diag(read.code, read.problem, spec.file, pos, pointer));
      const mimeType = IMAGE_MAGIC.find(([, test]) => test(read.text))?.[0];
      if (!mimeType) return void diagnostics.push(diag("KV708", `image file ${ref} is not a PNG, JPEG, GIF or WebP image (judged by its first bytes)`, spec.file, pos, pointer));
      const hash = sha256(read.text);
      (spec.images ??= {})[pointer] = { data: read.text.toString("base64"), mimeType, sha256: hash, bytes: read.text.length };
      spec.includes[relative(dirname(spec.file), read.target).split("\\").join("/")] = hash;
    });
  });
}

/** Reads each static resource's `file:` (bounded, inside the spec's folder) into spec.resourceFiles. */
function resolveResourceFiles(spec: LoadedSpec, diagnostics: Diagnostic[]): void {
  const doc = spec.doc;
  if (!isObject<unknown>(doc) || !Array.isArray(doc.resources)) return;
  doc.resources.forEach((resource: unknown, i: number) => {
    const ref = isObject<unknown>(resource) ? resource.file : undefined;
    if (typeof ref !== "string" || ref === "") return; // the spec schema says what is wrong
    const pointer = `/resources/${i}/file`;
    const pos = spec.positions[pointer] ?? { line: 1, column: 1 };
    const read = readInclude(spec.file, ref, "resource file", (path) => readRegularBytes(path, READ_LIMITS.resourceFileBytes));
    if ("problem" in read) return void diagnostics.push(diag(read.code, read.problem, spec.file, pos, pointer));
    const hash = sha256(read.text);
    const path = relative(dirname(spec.file), read.target).split("\\").join("/");
    (spec.resourceFiles ??= {})[pointer] = { data: read.text.toString("base64"), sha256: hash, bytes: read.text.length, path };
    spec.includes[path] = hash;
  });
}

function diag(code: string, message: string, file: string, pos: Position, pointer: string): Diagnostic {
  return { code, severity: "error", message, location: { file, line: pos.line, column: pos.column, pointer } };
}

export function loadSource(source: SourceFile, diagnostics: Diagnostic[]): LoadedSpec {
  const bytes = Buffer.byteLength(source.text);
  const tooLarge = bytes > READ_LIMITS.specBytes;
  const parsed: Parsed = tooLarge
    ? { doc: undefined, positions: {}, keyPositions: {}, readings: {}, errors: [{ message: `the spec is ${bytes} bytes; the limit is ${sizeText(READ_LIMITS.specBytes)}`, pos: { line: 1, column: 1 } }] }
    : parseWithPositions(source.text, true);
  const spec: LoadedSpec = {
    file: source.path,
    doc: parsed.doc,
    positions: parsed.positions,
    keyPositions: parsed.keyPositions,
    lines: tooLarge ? [] : source.text.split(/\r?\n/),
    includes: {},
    hash: sha256(source.text),
    ...parsed.readings,
  };
  if (tooLarge) diagnostics.push(diag("KV103", parsed.errors[0].message, source.path, parsed.errors[0].pos, ""));
  else for (const e of parsed.errors) diagnostics.push(diag(e.code ?? "KV101", e.code ? e.message : `invalid YAML: ${e.message}`, source.path, e.pos, ""));
  if (!parsed.errors.length) {
    resolveIncludes(spec, diagnostics);
    resolveImages(spec, diagnostics);
    resolveResourceFiles(spec, diagnostics);
  }
  return spec;
}

export function load(sources: SourceFile[], diagnostics: Diagnostic[]): LoadedSpec[] {
  return sources.map((s) => loadSource(s, diagnostics));
}
