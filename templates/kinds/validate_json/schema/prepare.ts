// Reads a schema once: picks the draft, refuses what the contract excludes (remote $ref, embedded $id,
// unknown $schema, refused patterns), collects anchors, then compiles it to closures.
import { translatePythonPattern } from "../pyregex/translate.js";
import { patternRefusalSentence } from "../pyregex/sentences.js";
import { arraySchemaKeywords, draftOf, idKeyword, mapSchemaKeywords, singleSchemaKeywords } from "./drafts.js";
import { escapeToken, resolveRef, type Target } from "./pointer.js";
import { refusals, SchemaRefusal } from "./refusal.js";
import { Compiler } from "./compile.js";
import { isObject, type Check, type Draft, type PatternInfo } from "./types.js";

export interface Prepared {
  draft: Draft;
  check: Check;
  /** Every distinct pattern in the schema (pattern and patternProperties), translated. */
  patterns: PatternInfo[];
}

const ANCHOR_NAME = /^[A-Za-z_][-A-Za-z0-9._]*$/;

export function prepareSchema(schema: unknown, defaultDraft: Draft = 2020): Prepared {
  if (typeof schema !== "boolean" && !isObject(schema)) {
    throw new SchemaRefusal(refusals.notASchema("#", "a schema must be an object or a boolean"));
  }
  let draft = defaultDraft;
  if (isObject(schema) && typeof schema.$schema === "string") {
    const d = draftOf(schema.$schema);
    if (d === null) throw new SchemaRefusal(refusals.unknownDraft(schema.$schema));
    draft = d;
  }
  const idKey = idKeyword(draft);
  const rootId = isObject(schema) && typeof schema[idKey] === "string" ? (schema[idKey] as string) : null;
  const anchors = new Map<string, Target>();
  const refs: [string, string][] = [];
  const patterns = new Map<string, PatternInfo>();
  const single = singleSchemaKeywords(draft);
  const arrays = arraySchemaKeywords(draft);
  const maps = mapSchemaKeywords(draft);
  const refKeys = draft === 2020 ? ["$ref", "$dynamicRef"] : draft === 2019 ? ["$ref", "$recursiveRef"] : ["$ref"];

  const addPattern = (source: string, where: string) => {
    if (patterns.has(source)) return;
    const t = translatePythonPattern(source);
    if (!t.ok) throw new SchemaRefusal(patternRefusalSentence(source, t, `at ${where}`));
    patterns.set(source, { id: patterns.size, source, js: t.js, where, cheapDegree: t.cheapDegree });
  };
  const addAnchor = (name: string, target: Target, primary: boolean) => {
    if (primary || !anchors.has(name)) anchors.set(name, target);
  };

  const walk = (s: unknown, ptr: string, isRoot: boolean): void => {
    if (typeof s === "boolean") return;
    if (!isObject(s)) throw new SchemaRefusal(refusals.notASchema(ptr, "a schema must be an object or a boolean"));
    const id = s[idKey];
    if (typeof id === "string") {
      // Drafts 4-7 spell a plain-name anchor as an $id holding only a fragment; that stays local.
      if (draft <= 7 && id.startsWith("#") && ANCHOR_NAME.test(id.slice(1))) addAnchor(id.slice(1), { schema: s, ptr }, true);
      else if (!isRoot) throw new SchemaRefusal(refusals.embeddedId(id, ptr));
    }
    if (draft >= 2019 && typeof s.$anchor === "string") addAnchor(s.$anchor, { schema: s, ptr }, true);
    if (draft === 2020 && typeof s.$dynamicAnchor === "string") addAnchor(s.$dynamicAnchor, { schema: s, ptr }, false);
    for (const k of refKeys) if (typeof s[k] === "string") refs.push([s[k] as string, `${ptr}/${k}`]);
    if (typeof s.pattern === "string") addPattern(s.pattern, `${ptr}/pattern`);
    if (isObject(s.patternProperties)) {
      for (const k of Object.keys(s.patternProperties)) addPattern(k, `${ptr}/patternProperties/${escapeToken(k)}`);
    }
    for (const k of single) {
      const sub = s[k];
      if (k === "items" && Array.isArray(sub) && draft !== 2020) sub.forEach((x, i) => walk(x, `${ptr}/items/${i}`, false));
      else if (sub !== undefined) walk(sub, `${ptr}/${k}`, false);
    }
    for (const k of arrays) {
      const list = s[k];
      if (list === undefined) continue;
      if (!Array.isArray(list)) throw new SchemaRefusal(refusals.notASchema(`${ptr}/${k}`, `${k} must be an array of schemas`));
      list.forEach((x, i) => walk(x, `${ptr}/${k}/${i}`, false));
    }
    for (const k of maps) {
      const m = s[k];
      if (m === undefined) continue;
      if (!isObject(m)) throw new SchemaRefusal(refusals.notASchema(`${ptr}/${k}`, `${k} must be an object`));
      for (const [name, sub] of Object.entries(m)) {
        if (k === "dependencies" && Array.isArray(sub)) continue; // a property list, not a schema
        walk(sub, `${ptr}/${k}/${escapeToken(name)}`, false);
      }
    }
  };
  walk(schema, "#", true);

  // Every reference must land inside the schema now, so a refusal never depends on the document.
  const resolve = (ref: string, at: string) => resolveRef(schema, ref, at, rootId, anchors);
  for (const [ref, at] of refs) resolve(ref, at);

  const compiler = new Compiler(draft, resolve, (source) => patterns.get(source)!);
  return { draft, check: compiler.node(schema, "#"), patterns: [...patterns.values()] };
}
