// Code blocks of the documentation, with their tags (docs/doc-blocks.md): the fence's info string
// is `LANG TAG [key=value ...]`. Markdown is read with marked's lexer, so fences inside lists and
// block quotes count and a fence inside another block does not.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Lexer, type Token } from "marked";

export interface Block {
  /** The document, relative to the repository root. */
  file: string;
  line: number;
  lang: string;
  tags: string[];
  params: Record<string, string>;
  text: string;
}

/** README.md and every Markdown file under docs/. */
export function documents(root: string): string[] {
  const found = ["README.md"];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found.sort();
}

function codeTokens(tokens: Token[], out: Token[]): void {
  for (const t of tokens) {
    if (t.type === "code") out.push(t);
    const children = (t as { tokens?: Token[] }).tokens;
    if (children) codeTokens(children, out);
    const items = (t as { items?: Token[] }).items;
    if (items) codeTokens(items, out);
  }
}

export function blocksOf(root: string, file: string): Block[] {
  const source = readFileSync(join(root, file), "utf8");
  const tokens: Token[] = [];
  codeTokens(new Lexer().lex(source), tokens);
  const blocks: Block[] = [];
  let cursor = 0;
  for (const t of tokens) {
    if (t.type !== "code") continue;
    const at = source.indexOf(t.raw.trimEnd(), cursor);
    cursor = at < 0 ? cursor : at + t.raw.trimEnd().length;
    const line = at < 0 ? 0 : source.slice(0, at).split("\n").length;
    // Indented code blocks have no info string: reported as a block without a language.
    const info = t.codeBlockStyle === "indented" ? "" : String(t.lang ?? "").trim();
    const [lang = "", ...words] = info.split(/\s+/).filter(Boolean);
    const tags = words.filter((w) => !w.includes("="));
    const params = Object.fromEntries(words.filter((w) => w.includes("=")).map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]));
    blocks.push({ file: relative(root, join(root, file)), line, lang, tags, params, text: t.text + "\n" });
  }
  return blocks;
}
