// What each fence of the documentation means (docs/doc-blocks.md), and the problems of a fence the
// test cannot exercise: no language, an unknown one, a checked language without a tag, a typo.
import type { Block } from "./blocks.js";

export type Kind = "text" | "kervan-spec" | "kervan-tools" | "fragment" | "data" | "runnable" | "not-runnable";

const LANGS: Record<string, "yaml" | "json" | "sh" | "text"> = { yaml: "yaml", yml: "yaml", json: "json", sh: "sh", bash: "sh", shell: "sh", text: "text" };
const TAGS: Record<"yaml" | "json" | "sh", Kind[]> = {
  yaml: ["kervan-spec", "kervan-tools", "fragment", "data"],
  json: ["kervan-spec", "fragment", "data"],
  sh: ["runnable", "not-runnable"],
};
const PARAMS: Partial<Record<Kind, string[]>> = { "kervan-spec": ["expect", "file"], "kervan-tools": ["expect"], data: ["file"], runnable: ["exit"] };

export function classify(block: Block): { kind: Kind } | { problem: string } {
  if (!block.lang) return { problem: "a code block needs a language: ```text for output and listings, or a checked language with its tag (docs/doc-blocks.md)" };
  const lang = LANGS[block.lang];
  if (!lang) return { problem: `language ${JSON.stringify(block.lang)} is not checked: use \`\`\`text, or one of yaml, json, sh with a tag (docs/doc-blocks.md)` };
  if (lang === "text") return block.tags.length ? { problem: "```text takes no tag" } : { kind: "text" };
  const allowed = TAGS[lang];
  if (block.tags.length !== 1 || !allowed.includes(block.tags[0] as Kind)) {
    return { problem: `a \`\`\`${block.lang} block needs exactly one tag of ${allowed.join(", ")} (docs/doc-blocks.md); it has ${block.tags.length ? block.tags.join(" ") : "none"}` };
  }
  const kind = block.tags[0] as Kind;
  for (const key of Object.keys(block.params)) {
    if (!(PARAMS[kind] ?? []).includes(key)) return { problem: `${kind} takes no ${key}=` };
  }
  if (block.params.expect !== undefined && !/^KV\d{3}$/.test(block.params.expect)) return { problem: `expect= takes a diagnostic code like KV323` };
  return { kind };
}
