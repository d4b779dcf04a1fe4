// GitHub's REST description (about 1,000 operations, vendored gzip under test/fixtures/openapi/corpus):
// `kervan import` + `kervan gen` of the result, each a fresh process into a fresh folder, against
// openapi-mcp-generator's generate + `tsc` of the same document, interleaved in the same run.
// Then the import alone: its time and its peak memory (maxRSS, reported by the process itself)
// against openapi-mcp-generator's generate step alone.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { OPENAPI_MCP_GENERATOR, prepareProject, tscBuild } from "./fixtures/openapi-project.js";
import { NODE, REPO, interleave, median, ms, run, tempDir, type Row } from "./util.js";

const KERVAN = join(REPO, "bin/kervan.mjs");
const RSS = join(REPO, "test/bench/fixtures/with-rss.mjs");

/** Runs `node SCRIPT ARGS` through with-rss.mjs; returns its wall time and peak resident memory in bytes. */
async function measured(args: string[]): Promise<{ ms: number; rss: number }> {
  const t = performance.now();
  const { stderr } = await run(NODE, [RSS, ...args], { cwd: REPO });
  const elapsed = performance.now() - t;
  const m = /kervan-bench-maxrss (\d+)/.exec(stderr);
  if (!m) throw new Error(`no peak memory reported:\n${stderr.slice(-2000)}`);
  return { ms: elapsed, rss: Number(m[1]) * 1024 };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

export async function benchImport(rounds = 2): Promise<{ rows: Row[]; notes: string[] }> {
  const root = tempDir("import");
  const doc = join(root, "api.github.com.json");
  writeFileSync(doc, gunzipSync(readFileSync(join(REPO, "test/fixtures/openapi/corpus/api.github.com.json.gz"))));
  const withBaseline = existsSync(OPENAPI_MCP_GENERATOR);
  let n = 0;
  const fresh = (what: string) => join(root, `${what}-${++n}`);
  const importArgs = (spec: string) => [KERVAN, "import", doc, "--name", "github", "--out", spec, "--max-tools", "5000"];
  const importRuns: Array<{ ms: number; rss: number }> = [];
  const genRuns: Array<{ ms: number; rss: number }> = [];
  const omgGen: Array<{ ms: number; rss: number }> = [];
  const omgTsc: number[] = [];

  const subject = async (): Promise<number> => {
    const dir = fresh("kervan");
    const spec = join(dir, "github.yaml");
    const imp = await measured(importArgs(spec));
    const gen = await measured([KERVAN, "gen", spec, "--out", join(dir, "out")]);
    if (!existsSync(join(dir, "out", "github", "server.mjs"))) throw new Error("kervan gen wrote no server for the imported GitHub spec");
    importRuns.push(imp);
    genRuns.push(gen);
    rmSync(dir, { recursive: true, force: true });
    return imp.ms + gen.ms;
  };
  const baseline = async (): Promise<number> => {
    const project = fresh("omg");
    const gen = await measured([OPENAPI_MCP_GENERATOR, "-i", doc, "-o", project, "--force"]);
    prepareProject(project);
    const t = performance.now();
    await tscBuild(project);
    const tsc = performance.now() - t;
    omgGen.push(gen);
    omgTsc.push(tsc);
    rmSync(project, { recursive: true, force: true });
    return gen.ms + tsc;
  };

  const subjects: Array<() => Promise<number>> = [subject];
  if (withBaseline) subjects.push(baseline);
  const samples = await interleave(subjects, rounds, 0);
  const k = median(samples[0]!);
  const b = withBaseline ? median(samples[1]!) : NaN;
  const imp = median(importRuns.map((r) => r.ms));
  const impRss = median(importRuns.map((r) => r.rss));
  const section = "OpenAPI import: GitHub's REST description (fresh processes, fresh folders)";
  const rows: Row[] = [
    {
      section,
      name: "kervan import + gen vs openapi-mcp-generator generate + tsc, same document",
      ratio: k / b,
      target: { op: "≤", value: 0.5 },
      subject: ms(k),
      baseline: withBaseline ? ms(b) : "not installed",
    },
    {
      section,
      name: "kervan import alone vs openapi-mcp-generator generate alone (time)",
      ratio: imp / median(omgGen.map((r) => r.ms)),
      subject: ms(imp),
      baseline: withBaseline ? ms(median(omgGen.map((r) => r.ms))) : "not installed",
    },
    {
      section,
      name: "kervan import alone vs openapi-mcp-generator generate alone (peak memory, maxRSS)",
      ratio: impRss / median(omgGen.map((r) => r.rss)),
      subject: mib(impRss),
      baseline: withBaseline ? mib(median(omgGen.map((r) => r.rss))) : "not installed",
    },
  ];
  const notes = [
    `GitHub import: ${ms(imp)} and ${mib(impRss)} peak for the import, ${ms(median(genRuns.map((r) => r.ms)))} and ${mib(median(genRuns.map((r) => r.rss)))} for kervan gen of the imported spec; openapi-mcp-generator: generate ${ms(median(omgGen.map((r) => r.ms)))}, tsc ${ms(median(omgTsc))} (its node_modules prepared untimed, as in the generation bench).`,
  ];
  return { rows, notes };
}
