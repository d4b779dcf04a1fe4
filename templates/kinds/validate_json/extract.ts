// Finds the JSON to validate in a model's output, in the contract's order: the whole text as a bare
// JSON value; else the first fenced code block; else the first JSON object or array in the prose.
//
// Tie breaks (also in docs/validate-json.md):
// - Fences are CommonMark-style: ``` or ~~~ (3 or more) at a line start (up to 3 spaces), closed by
//   a line with the same character repeated at least as often. Only the first word of the info string
//   counts. "First fenced code block" means the first whose info is empty or json/jsonc/json5: a
//   ```python or ```sh block before the answer is code, not the answer. If no fence qualifies, the
//   prose scan runs over the whole text. An unclosed fence runs to the end (truncated output).
//   A fence that does not parse but itself holds a qualifying fence (```` around ```json) yields
//   the inner one.
// - A chosen fence that does not parse is reported as not JSON; we never fall back past it.
// - Prose scan: candidates start at { or [ and end at the matching bracket, skipping brackets inside
//   double-quoted strings (with escapes). The first candidate that parses as an object wins; failing
//   that the first parsed array that is not a citation like [1] or [2, 3] (small integers only);
//   failing that the first citation-like array. Scanning resumes after a parsed candidate's end.
import { clipText } from "../../runtime/clip.js";
import { describeFailure, parseJson, type ParseFailure } from "./json-diagnosis.js";

export type Extraction =
  | { ok: true; value: unknown; from: "bare" | "fence" | "prose" }
  | { ok: false; feedback: string };

const JSON_INFO = new Set(["", "json", "jsonc", "json5"]);
const MAX_CANDIDATES = 200; // bounds the prose scan on hostile text
const CITATION = /^\[\s*\d{1,4}(\s*,\s*\d{1,4})*\s*\]$/;

interface Fence { info: string; body: string }

/** Fenced code blocks in order of appearance. */
export function findFences(text: string): Fence[] {
  const lines = text.split(/\r?\n/);
  const fences: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open || (open[1][0] === "`" && open[2].includes("`"))) continue;
    const marker = open[1];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[1][0] === marker[0] && close[1].length >= marker.length) break;
      body.push(lines[j]);
    }
    fences.push({ info: open[2].trim().split(/\s+/)[0].toLowerCase(), body: body.join("\n") });
    i = j;
  }
  return fences;
}

/** End index (exclusive) of the bracketed value starting at `start`, or -1 if it never closes. */
function matchBracket(text: string, start: number): number {
  const stack: string[] = [];
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (i >= text.length) return -1;
    } else if (c === "{") stack.push("}");
    else if (c === "[") stack.push("]");
    else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return i + 1; // mismatched: let JSON.parse report it
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

function scanProse(text: string): Extraction | { firstFailure: { snippet: string; failure: ParseFailure } | null } {
  let firstArray: unknown = undefined;
  let firstCitation: unknown = undefined;
  let firstFailure: { snippet: string; failure: ParseFailure } | null = null;
  let tried = 0;
  for (let i = 0; i < text.length && tried < MAX_CANDIDATES; i++) {
    const c = text[i];
    if (c !== "{" && c !== "[") continue;
    tried++;
    const end = matchBracket(text, i);
    const snippet = end < 0 ? text.slice(i) : text.slice(i, end);
    const parsed = parseJson(snippet);
    if (!parsed.ok) {
      firstFailure ??= { snippet, failure: parsed.failure };
      continue;
    }
    if (!Array.isArray(parsed.value)) return { ok: true, value: parsed.value, from: "prose" };
    if (CITATION.test(snippet)) firstCitation ??= parsed.value;
    else firstArray ??= parsed.value;
    i = end - 1; // do not look inside a value that parsed
  }
  if (firstArray !== undefined) return { ok: true, value: firstArray, from: "prose" };
  if (firstCitation !== undefined) return { ok: true, value: firstCitation, from: "prose" };
  return { firstFailure };
}

/** The first JSON-or-plain fence; a fence that only wraps another fence (```` around ```) yields the inner one. */
function pickFence(text: string, depth: number): Fence | undefined {
  const fence = findFences(text).find((f) => JSON_INFO.has(f.info));
  if (!fence || depth >= 3 || parseJson(fence.body.trim()).ok) return fence;
  return pickFence(fence.body, depth + 1) ?? fence;
}

export function extractJson(output: string): Extraction {
  const text = output.replace(/^\uFEFF/, "");
  const bare = parseJson(text.trim());
  if (bare.ok) return { ok: true, value: bare.value, from: "bare" };
  const fence = pickFence(text, 0);
  if (fence) {
    const parsed = parseJson(fence.body.trim());
    if (parsed.ok) return { ok: true, value: parsed.value, from: "fence" };
    const label = fence.info ? `the fenced code block (${fence.info})` : "the fenced code block";
    return { ok: false, feedback: describeFailure(label, fence.body.trim(), parsed.failure) };
  }
  const prose = scanProse(text);
  if ("ok" in prose) return prose;
  if (prose.firstFailure) {
    return { ok: false, feedback: describeFailure("the first JSON object or array in the text", prose.firstFailure.snippet, prose.firstFailure.failure) };
  }
  const t = text.trim();
  if (t === "") return { ok: false, feedback: "Not JSON: the output is empty; expected a JSON value, a fenced code block or a JSON object/array in the text." };
  if (/^(["\-0-9]|true|false|null)/.test(t)) return { ok: false, feedback: describeFailure("the output", t, bare.failure) };
  return { ok: false, feedback: `Not JSON: the output holds no JSON value, fenced code block or JSON object/array; it starts ${JSON.stringify(clipText(t, 60))}.` };
}
