// Sources are written ahead into a staging folder while the bundle is made (write-staging.ts); the
// write stage moves them into place. The output must end exactly as a plain write leaves it, a
// build that stops leaves it untouched with no staging folder, and --check stages nothing.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Staging, STAGING_PREFIX } from "../../generator/write-staging.js";
import { write } from "../../generator/write.js";
import { generate } from "../../generator/pipeline.js";

const root = mkdtempSync(join(tmpdir(), "kervan-staging-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
const fresh = () => join(root, `case-${++n}`);
const stagingFolders = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((e) => e.startsWith(STAGING_PREFIX)) : []);

/** Every file under a folder, by relative path. */
function tree(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, tree(join(dir, e.name), rel));
    else out[rel] = readFileSync(join(dir, e.name), "utf8");
  }
  return out;
}

const files = [
  { path: "s/src/a.ts", contents: "export const a = 1;\n" },
  { path: "s/src/tools/b.ts", contents: "export const b = 2;\n" },
  { path: "s/src/c.ts", contents: "same\n" },
];

describe("staged writes", () => {
  it("end with the bytes a plain write gives, moving staged files and reporting unchanged ones", async () => {
    const staged = fresh();
    const plain = fresh();
    for (const dir of [staged, plain]) {
      mkdirSync(join(dir, "s/src"), { recursive: true });
      writeFileSync(join(dir, "s/src/c.ts"), "same\n");
      writeFileSync(join(dir, "s/src/a.ts"), "old\n");
      writeFileSync(join(dir, "s/stale.txt"), "gone\n");
    }
    const staging = new Staging(staged);
    await staging.stage(files);
    // Staged, not yet in place: the output still holds the old bytes.
    expect(readFileSync(join(staged, "s/src/a.ts"), "utf8")).toBe("old\n");
    expect(stagingFolders(staged)).toHaveLength(1);
    expect(staging.known("s/src/c.ts")).toBe("unchanged");
    expect(staging.known("s/src/a.ts")).toMatchObject({ staged: expect.stringContaining(STAGING_PREFIX) });
    const a = write(staged, files, ["s"], { check: false, pruneServers: false, staging });
    staging.discard();
    const b = write(plain, files, ["s"], { check: false, pruneServers: false });
    expect(a).toEqual(b);
    expect(a.written).toEqual(["s/src/a.ts", "s/src/tools/b.ts"]);
    expect(a.unchanged).toEqual(["s/src/c.ts"]);
    expect(tree(staged)).toEqual(tree(plain));
    expect(stagingFolders(staged)).toEqual([]);
  });

  it("discarded, leave the output as it was and no staging folder", async () => {
    const dir = fresh();
    mkdirSync(join(dir, "s/src"), { recursive: true });
    writeFileSync(join(dir, "s/src/a.ts"), "old\n");
    const before = tree(dir);
    const staging = new Staging(dir);
    const staged = staging.stage(files);
    staging.discard();
    await staged;
    expect(tree(dir)).toEqual(before);
    expect(stagingFolders(dir)).toEqual([]);
    // Nothing staged after a discard: the write stage writes every file itself.
    expect(staging.known("s/src/a.ts")).toBeUndefined();
  });

  it("remove a leftover staging folder of a killed run, and keep one that may be in use", async () => {
    const dir = fresh();
    mkdirSync(join(dir, `${STAGING_PREFIX}old`, "s"), { recursive: true });
    mkdirSync(join(dir, `${STAGING_PREFIX}recent`));
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(join(dir, `${STAGING_PREFIX}old`), hoursAgo, hoursAgo);
    const staging = new Staging(dir);
    await staging.stage(files);
    expect(stagingFolders(dir)).toContain(`${STAGING_PREFIX}recent`);
    expect(stagingFolders(dir)).not.toContain(`${STAGING_PREFIX}old`);
    staging.discard();
  });
});

const spec = (name: string, extra = "") => ({
  path: `${name}.yaml`,
  text: `server: { name: ${name}, version: 0.1.0 }\ntools:\n  - name: echo_text\n    description: Echo the given text back. Use it to test the server.\n    input: { type: object, properties: { text: { type: string${extra} } }, required: [text], additionalProperties: false }\n    exec: { argv: [/bin/echo, "{text}"] }\n`,
});

describe("gen with staging", () => {
  it("writes a server whose files match a --check of the same spec, and leaves no staging folder", async () => {
    const out = fresh();
    const built = await generate([spec("staged")], { outRoot: out, check: false, pruneServers: false });
    expect(built.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(built.report!.written.length).toBeGreaterThan(4);
    expect(stagingFolders(out)).toEqual([]);
    const checked = await generate([spec("staged")], { outRoot: out, check: true, pruneServers: false });
    expect(checked.report!.differing).toEqual([]);
  });

  it("--check stages nothing: an output root that does not exist is not created", async () => {
    const out = fresh();
    await generate([spec("checked")], { outRoot: out, check: true, pruneServers: false });
    expect(existsSync(out)).toBe(false);
  });

  it("a refused spec leaves the output untouched", async () => {
    const out = fresh();
    mkdirSync(out);
    writeFileSync(join(out, "keep.txt"), "kept\n");
    const refused = await generate([spec("refused", ', pattern: "([a-z"')], { outRoot: out, check: false, pruneServers: false });
    expect(refused.diagnostics.some((d) => d.severity === "error")).toBe(true);
    expect(tree(out)).toEqual({ "keep.txt": "kept\n" });
  });
});
