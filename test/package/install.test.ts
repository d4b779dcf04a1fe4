// Kervan as a dependency of another project: the packed tarball, installed into a fresh project
// with its own specs/ (and a tsconfig.json of its own, which must not change the output), gives
// byte for byte the servers this repository builds from the same specs, with the same audit facts.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumerProject, pack, ROOT, type Packed } from "./consumer.js";

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) e.isDirectory() ? walk(join(d, e.name)) : out.push(relative(dir, join(d, e.name)));
  };
  walk(dir);
  return out.sort();
}

const SPECS = readdirSync(join(ROOT, "specs")).filter((f) => /\.ya?ml$/.test(f));

// Each step here is a whole `npx kervan gen` of every example spec in a fresh process: allow the time a
// loaded machine needs (the assertions are on bytes and exit codes, never on time).
const SLOW = 180_000;

describe("kervan installed from its tarball into another project", () => {
  let packed: Packed;
  let project: string;
  beforeAll(() => {
    packed = pack();
    const files: Record<string, string> = {
      // A project tsconfig that would add "use strict" to every module if esbuild read it.
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, alwaysStrict: true, target: "ES5" } }),
    };
    for (const s of SPECS) files[`specs/${s}`] = readFileSync(join(ROOT, "specs", s), "utf8");
    project = consumerProject(packed, files);
  }, SLOW);
  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
    if (packed) rmSync(join(packed.tarball, ".."), { recursive: true, force: true });
  });

  it("ships only what runs: the CLI, the generator (its sources, the one plain-JavaScript helper the prebuild shares, and its prebuilt dist/, the spec validator included, and the related-words table derived from WordNet), the templates, the spec schema, README and LICENSE", () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain("bin/kervan.mjs");
    expect(paths).toContain("dist/cli.mjs");
    expect(paths).toContain("dist/inputs.json");
    expect(paths).toContain("kervan.schema.json");
    expect(paths).toContain("LICENSE");
    expect(paths).toContain("README.md");
    expect(paths).toContain("templates/runtime/index.ts");
    expect(paths).toContain("generator/cli.ts");
    expect(paths).toContain("generator/catalog/related-words.json.gz");
    const extra = paths.filter((p) => !/^(docs\/[\w-]+\.md|bin\/(kervan|prebuild|prebuilt|spec-validator)\.mjs|dist\/[\w-]+\.(mjs|cjs)|dist\/inputs\.json|generator\/.+\.ts|generator\/shared\/schema-hash\.(mjs|d\.mts)|generator\/catalog\/related-words\.json\.gz|templates\/.+\.ts|kervan\.schema\.json|README\.md|LICENSE|package\.json)$/.test(p));
    expect(extra).toEqual([]);
  }, SLOW);

  it("runs the prebuilt generator there: every file dist/inputs.json names is installed with its bytes", async () => {
    const { prebuiltEntry } = (await import(pathToFileURL(join(ROOT, "bin/prebuilt.mjs")).href)) as { prebuiltEntry(root: string): string | undefined };
    expect(prebuiltEntry(join(project, "node_modules/kervan"))).toBe(pathToFileURL(join(project, "node_modules/kervan/dist/cli.mjs")).href);
  }, SLOW);

  it("hoists the bundled package into the project, as npm does", () => {
    expect(existsSync(join(project, "node_modules/@jmespath-community/jmespath/package.json"))).toBe(true);
    expect(existsSync(join(project, "node_modules/kervan/node_modules"))).toBe(false);
    expect(existsSync(join(project, "node_modules/kervan/test"))).toBe(false);
  }, SLOW);

  it("`npx kervan gen` there writes the same bytes as the repository's build of the same specs", () => {
    const gen = spawnSync("npx", ["kervan", "gen"], { cwd: project, encoding: "utf8" });
    expect(gen.stderr).toMatch(/written/);
    expect(gen.status).toBe(0);
    const servers = SPECS.map((s) => s.replace(/\.ya?ml$/, ""));
    for (const server of servers) {
      const theirs = filesUnder(join(project, "out", server));
      expect(theirs).toEqual(filesUnder(join(ROOT, "out", server)));
      for (const f of theirs) {
        expect(readFileSync(join(project, "out", server, f), "utf8"), `${server}/${f}`).toBe(readFileSync(join(ROOT, "out", server, f), "utf8"));
      }
    }
  }, SLOW);

  it("reports the bundled packages and their licenses from the bundle itself", () => {
    const m = JSON.parse(readFileSync(join(project, "out/open-meteo/kervan.manifest.json"), "utf8"));
    expect(m.bundle.packages["@jmespath-community/jmespath"]).toEqual({ version: "1.3.0", license: "MPL-2.0" });
    const audit = readFileSync(join(project, "out/open-meteo/AUDIT.md"), "utf8");
    expect(audit).toContain("@jmespath-community/jmespath");
    expect(audit).toContain("run `kervan gen`");
    expect(audit).not.toContain("npm run");
    expect(readFileSync(join(project, "out/open-meteo/server.mjs"), "utf8")).not.toContain('"use strict"');
  }, SLOW);

  it("`kervan gen --check` is clean there and `kervan --version` answers", () => {
    const check = spawnSync("npx", ["kervan", "gen", "--check"], { cwd: project, encoding: "utf8" });
    expect(check.stderr).toContain("no drift");
    expect(check.status).toBe(0);
    const version = execFileSync("npx", ["kervan", "-v"], { cwd: project, encoding: "utf8" });
    expect(version.trim()).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  }, SLOW);
});
