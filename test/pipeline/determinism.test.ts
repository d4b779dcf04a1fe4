// Same spec, same bytes: twice, in shuffled order, and against what is checked in (no file more,
// none less); --check writes
// nothing and names every differing file; an unchanged spec is served from the manifest cache.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { generate } from "../../generator/pipeline.js";
import { readSources } from "../../generator/cli/sources.js";
import { specSchema } from "../../generator/check/spec-schema.js";

/**
 * An emitted tsconfig.json names the runtime relative to its own folder, so its bytes depend on
 * where the output root is; compared with the paths resolved to the package root instead (and the
 * manifest without that file's hash).
 */
function located(path: string, text: string): string {
  // The manifest records that file's hash: compared without it (the file itself is compared above).
  if (path.endsWith("kervan.manifest.json")) return text.replace(/\n    "tsconfig\.json": "[0-9a-f]{64}"/, '\n    "tsconfig.json": "<location-dependent>"');
  if (!path.endsWith("tsconfig.json")) return text;
  const dir = dirname(path);
  return text.replace(/"((?:\.\.\/)+)([^"]*)"/g, (_, up: string, rest: string) => JSON.stringify(`<package>/${relative(process.cwd(), resolve(dir, up, rest))}`));
}

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(root, p)] = located(p, readFileSync(p, "utf8"));
    }
  };
  walk(root);
  return out;
}

const tmp = () => mkdtempSync(join(tmpdir(), "kervan-gen-"));

describe("determinism", () => {
  it("generates identical bytes twice, in shuffled spec order, and equal to out/", async () => {
    const sources = readSources(["specs"]);
    const [a, b] = [tmp(), tmp()];
    const ra = await generate(sources, { outRoot: a, check: false, pruneServers: false });
    const rb = await generate([...sources].reverse(), { outRoot: b, check: false, pruneServers: false });
    expect(ra.diagnostics).toEqual([]);
    expect(rb.diagnostics).toEqual([]);
    const sa = snapshot(a);
    expect(Object.keys(sa).length).toBeGreaterThan(5);
    expect(snapshot(b)).toEqual(sa);
    const checkedIn = snapshot("out");
    for (const [path, text] of Object.entries(sa)) expect(checkedIn[path], path).toBe(text);
    // Nothing else either: a stale file left in out/ (a removed tool's module, say) fails too.
    expect(Object.keys(checkedIn).sort().filter((p) => !(p in sa)), "stale files in out/").toEqual([]);
  });

  it("--check writes nothing and lists changed, missing and stale files", async () => {
    const root = tmp();
    // One server is enough to edit, add to and compare: the whole of specs/ is compared above.
    const sources = readSources(["specs/repo-explorer.yaml"]);
    await generate(sources, { outRoot: root, check: false, pruneServers: false });
    const victim = join(root, "repo-explorer/src/tools/read_file.ts");
    writeFileSync(victim, readFileSync(victim, "utf8") + "// edited by hand\n");
    writeFileSync(join(root, "repo-explorer/src/leftover.ts"), "export {};\n");
    const before = statSync(victim).mtimeMs;
    const r = await generate(sources, { outRoot: root, check: true, pruneServers: true });
    expect(r.report!.differing).toEqual(["repo-explorer/src/leftover.ts (stale)", "repo-explorer/src/tools/read_file.ts"]);
    expect(statSync(victim).mtimeMs).toBe(before);
    expect(readFileSync(victim, "utf8")).toContain("edited by hand");
  });

  it("serves an unchanged spec from the cache and regenerates a changed output", async () => {
    const root = tmp();
    const sources = readSources(["specs/repo-explorer.yaml"]);
    await generate(sources, { outRoot: root, check: false, pruneServers: false });
    const seen: boolean[] = [];
    const again = await generate(sources, { outRoot: root, check: false, pruneServers: false, progress: (_s, _ms, cached) => seen.push(cached) });
    expect(seen).toEqual([true]);
    expect(again.report!.written).toEqual([]);
    const bundle = join(root, "repo-explorer/server.mjs");
    writeFileSync(bundle, "tampered");
    const third = await generate(sources, { outRoot: root, check: false, pruneServers: false });
    expect(third.report!.written).toEqual(["repo-explorer/server.mjs"]);
  });

  it("kervan.schema.json is the composed spec schema", () => {
    expect(JSON.parse(readFileSync("kervan.schema.json", "utf8"))).toEqual(specSchema());
  });
});
