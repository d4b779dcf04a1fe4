// bin/kervan.mjs runs the generator prebuilt into dist/ (bin/prebuild.mjs) only while dist/inputs.json's
// hashes hold; otherwise the TypeScript sources. On a copy of the package (the real tree is never
// edited here): the prebuilt CLI and its worker threads are what runs and write the sources' bytes;
// an edited source, an edited dist/ file or a missing dist/ sends the CLI back to the sources.
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./consumer.js";

const SLOW = 180_000;
const TOOLS = 240; // past the thresholds from which the check and the emit use worker threads

/** A spec of many http tools, each with its own input and output schema. */
function largeSpec(): string {
  const tools = Array.from({ length: TOOLS }, (_, i) =>
    [
      `  - name: tool_${String(i).padStart(3, "0")}`,
      `    description: Read item ${i} from the example API. Use it when asked for item ${i}.`,
      `    input: { type: object, properties: { q${i}: { type: string, maxLength: ${i + 1} } }, required: [q${i}], additionalProperties: false }`,
      `    http: { method: GET, baseUrl: https://api.example.com, path: "/items/{{input.q${i}}}" }`,
      `    output: { select: "@", schema: { type: object, properties: { v${i}: { type: integer, minimum: ${i} } } } }`,
    ].join("\n"),
  );
  return `server: { name: large, version: 0.1.0 }\ntools:\n${tools.join("\n")}\n`;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) e.isDirectory() ? walk(join(d, e.name)) : out.push(relative(dir, join(d, e.name)));
  };
  walk(dir);
  return out.sort();
}

const sameTree = (a: string, b: string) => {
  const files = filesUnder(a);
  expect(filesUnder(b)).toEqual(files);
  for (const f of files) expect(readFileSync(join(b, f)).equals(readFileSync(join(a, f))), f).toBe(true);
};

const prebuilt = async (root: string): Promise<string | undefined> =>
  ((await import(pathToFileURL(join(ROOT, "bin/prebuilt.mjs")).href)) as { prebuiltEntry(root: string): string | undefined }).prebuiltEntry(root);

const MARK = (where: string) => `\nprocess.stderr.write("[${where}]\\n");\n`;

describe("the prebuilt generator in dist/", () => {
  let work: string;
  let pkg: string;
  let specs: string;
  /** One small spec: enough to see which copy of the CLI runs. */
  let small: string;
  /** The small spec and the large one: enough to see which copy of the worker thread runs. */
  let threads: string;
  let n = 0;

  /** `kervan gen` of a specs folder (all of specs/ and a large one by default) by the copy's bin/kervan.mjs into a fresh folder. */
  function gen(env: Record<string, string> = {}, folder = specs) {
    const out = join(work, `out-${++n}`);
    const run = spawnSync(process.execPath, [join(pkg, "bin/kervan.mjs"), "gen", folder, "--out", out], { encoding: "utf8", env: { ...process.env, KERVAN_FROM_SOURCE: "", ...env } });
    expect(run.status, run.stderr).toBe(0);
    return { out, stderr: run.stderr };
  }

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "kervan-prebuilt-"));
    pkg = join(work, "kervan");
    for (const f of ["bin", "generator", "templates", "package.json", "tsconfig.json", "kervan.schema.json"]) cpSync(join(ROOT, f), join(pkg, f), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"), "dir");
    specs = join(work, "specs");
    for (const f of readdirSync(join(ROOT, "specs")).filter((f) => /\.ya?ml$/.test(f))) cpSync(join(ROOT, "specs", f), join(specs, f));
    writeFileSync(join(specs, "large.yaml"), largeSpec());
    small = join(work, "small");
    threads = join(work, "threads");
    for (const [folder, files] of [[small, ["validator.yaml"]], [threads, ["validator.yaml", "large.yaml"]]] as const) for (const f of files) cpSync(join(specs, f), join(folder, f));
    const build = spawnSync(process.execPath, [join(pkg, "bin/prebuild.mjs")], { encoding: "utf8" });
    expect(build.status, build.stderr).toBe(0);
  }, SLOW);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("runs the CLI and its worker thread from dist/, and they write the bytes the sources write", async () => {
    expect(await prebuilt(pkg)).toBe(pathToFileURL(join(pkg, "dist/cli.mjs")).href);
    // Mark dist's entries and restamp them: a valid stamp, and a trace of which files ran.
    const stamp = JSON.parse(readFileSync(join(pkg, "dist/inputs.json"), "utf8"));
    const { createHash } = await import("node:crypto");
    for (const name of ["cli", "build-thread"]) {
      appendFileSync(join(pkg, `dist/${name}.mjs`), MARK(`dist ${name}`));
      stamp.outputs[`dist/${name}.mjs`] = createHash("sha256").update(readFileSync(join(pkg, `dist/${name}.mjs`))).digest("hex");
    }
    writeFileSync(join(pkg, "dist/inputs.json"), JSON.stringify(stamp));
    const fromDist = gen();
    expect(fromDist.stderr).toContain("[dist cli]");
    expect(fromDist.stderr).toContain("[dist build-thread]");
    const fromSource = gen({ KERVAN_FROM_SOURCE: "1" });
    expect(fromSource.stderr).not.toContain("[dist");
    sameTree(fromSource.out, fromDist.out);
  }, SLOW);

  it("a dist/ file that is not what was built is never run", async () => {
    appendFileSync(join(pkg, "dist/cli.mjs"), MARK("edited dist"));
    expect(await prebuilt(pkg)).toBeUndefined();
    const run = gen({}, small);
    expect(run.stderr).not.toContain("[edited dist]");
    expect(run.stderr).not.toContain("[dist cli]");
    expect(run.stderr).toMatch(/written/);
  }, SLOW);

  it("a source edited after the build runs from the source, workers included", async () => {
    const source = join(work, "fresh");
    cpSync(pkg, source, { recursive: true, verbatimSymlinks: true });
    rmSync(join(source, "dist"), { recursive: true });
    const build = spawnSync(process.execPath, [join(source, "bin/prebuild.mjs")], { encoding: "utf8" });
    expect(build.status, build.stderr).toBe(0);
    expect(await prebuilt(source)).toBeDefined();
    appendFileSync(join(source, "generator/cli.ts"), MARK("source cli"));
    appendFileSync(join(source, "generator/build-thread.ts"), MARK("source build-thread"));
    expect(await prebuilt(source)).toBeUndefined();
    pkg = source;
    const run = gen({}, threads);
    expect(run.stderr).toContain("[source cli]");
    expect(run.stderr).toContain("[source build-thread]");
  }, SLOW);

  it("without dist/ the CLI runs from the sources", async () => {
    rmSync(join(pkg, "dist"), { recursive: true });
    expect(await prebuilt(pkg)).toBeUndefined();
    const run = gen({}, small);
    expect(run.stderr).toContain("[source cli]");
    expect(run.stderr).toMatch(/written/);
  }, SLOW);
});
