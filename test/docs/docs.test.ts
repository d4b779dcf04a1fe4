// Every code block of README.md and docs/ is exercised as its fence says (docs/doc-blocks.md):
// specs are built by the real CLI (or fail with the stated code), data parses, runnable shell
// runs in a temporary project. A broken example fails here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseDocument } from "yaml";
import { blocksOf, documents, type Block } from "./blocks.js";
import { classify } from "./rules.js";

const ROOT = resolve(import.meta.dirname, "../..");

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "kervan-docs-"));
  cpSync(join(ROOT, "specs"), join(dir, "specs"), { recursive: true });
  cpSync(join(ROOT, "out"), join(dir, "out"), { recursive: true });
  cpSync(join(ROOT, "kervan.schema.json"), join(dir, "kervan.schema.json"));
  mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
  symlinkSync(join(ROOT, "bin/kervan.mjs"), join(dir, "node_modules/.bin/kervan"));
  return dir;
}

function run(cmd: string, args: string[], cwd: string) {
  const env = { ...process.env, PATH: `${join(cwd, "node_modules/.bin")}:${process.env.PATH}`, npm_config_offline: "true", npm_config_update_notifier: "false" };
  return spawnSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
}

function parses(block: Block): void {
  if (block.lang === "json") JSON.parse(block.text);
  else {
    const doc = parseDocument(block.text);
    expect(doc.errors.map((e) => e.message)).toEqual([]);
  }
}

function write(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

function build(block: Block, dir: string, kind: "kervan-spec" | "kervan-tools"): void {
  const slug = `${block.file.replace(/[^\w]+/g, "-")}-${block.line}`;
  const ext = block.lang === "json" ? "json" : "yaml";
  let text = block.text;
  if (kind === "kervan-tools") text = `server: { name: doc-example, version: 0.1.0 }\n${/^tools:/m.test(text) ? text : `tools:\n${text}`}`;
  const path = block.params.file ?? `doc-specs/${slug}.${ext}`;
  write(dir, path, text);
  const r = run(process.execPath, [join(ROOT, "bin/kervan.mjs"), "gen", path, "--out", `doc-out/${slug}`], dir);
  const expected = block.params.expect;
  if (expected) {
    expect(r.stderr, "the stated code").toMatch(new RegExp(`: (error|warning) ${expected}:`));
  } else {
    expect(r.stderr).not.toMatch(/: error KV\d+/);
    expect(r.status, r.stderr).toBe(0);
  }
}

for (const file of documents(ROOT)) {
  const blocks = blocksOf(ROOT, file);
  if (!blocks.length) continue; // nothing to exercise
  describe(file, () => {
    let dir = "";
    beforeAll(() => {
      dir = project();
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    for (const block of blocks) {
      const title = `${file}:${block.line} \`\`\`${[block.lang, ...block.tags, ...Object.entries(block.params).map(([k, v]) => `${k}=${v}`)].join(" ")}`;
      it(title, { timeout: 180_000 }, () => {
        const kind = classify(block);
        if ("problem" in kind) throw new Error(`${file}:${block.line}: ${kind.problem}`);
        switch (kind.kind) {
          case "text":
            return;
          case "kervan-spec":
          case "kervan-tools":
            return build(block, dir, kind.kind);
          case "fragment":
          case "data":
            parses(block);
            if (block.params.file) write(dir, block.params.file, block.text);
            return;
          case "not-runnable": {
            const r = run("bash", ["-n", "-c", block.text], dir);
            expect(r.stderr).toBe("");
            expect(r.status).toBe(0);
            return;
          }
          case "runnable": {
            const r = run("bash", ["-e", "-o", "pipefail", "-c", block.text], dir);
            expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(Number(block.params.exit ?? 0));
            return;
          }
        }
      });
    }
  });
}
