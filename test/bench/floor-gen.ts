// Issue 26's generation rows: gen + bundle of 5,000 tools against openapi-mcp-generator generate + tsc;
// gen after one tool of a 1,000-tool spec changed against a fresh build of the same spec; and the peak
// memory of generating GitHub's imported REST spec. Each a fresh `kervan` process.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { execSpec, openApiDoc, syntheticTools } from "./fixtures/synthetic.js";
import { OPENAPI_MCP_GENERATOR, openApiGenerate, prepareProject, tscBuild } from "./fixtures/openapi-project.js";
import { NODE, REPO, interleave, median, ms, run, tempDir, type Row } from "./util.js";

const KERVAN = join(REPO, "bin/kervan.mjs");
const RSS = join(REPO, "test/bench/fixtures/with-rss.mjs");

async function gen(spec: string, out: string): Promise<string> {
  const { stderr } = await run(NODE, [KERVAN, "gen", spec, "--out", out], { cwd: REPO });
  if (!/ generated in /.test(stderr)) throw new Error(`kervan gen ${spec} did not generate:\n${stderr.slice(-2000)}`);
  return stderr;
}

export async function benchFloorGen5000(n = 5000, rounds = 1): Promise<Row[]> {
  const root = tempDir("gen5000");
  const spec = join(root, "spec.yaml");
  const doc = join(root, "api.json");
  writeFileSync(spec, execSpec(n));
  writeFileSync(doc, JSON.stringify(openApiDoc(n), null, 2));
  let k = 0;
  const kervan = async () => {
    const out = join(root, `kervan-${++k}`);
    await gen(spec, out);
    rmSync(out, { recursive: true, force: true });
  };
  const baseline = async () => {
    const project = join(root, `omg-${++k}`);
    const t = performance.now();
    await openApiGenerate(doc, project);
    const g = performance.now() - t;
    prepareProject(project); // node_modules links: the stand-in for `npm install`, untimed
    const t2 = performance.now();
    await tscBuild(project);
    const total = g + performance.now() - t2;
    rmSync(project, { recursive: true, force: true });
    return total;
  };
  if (!existsSync(OPENAPI_MCP_GENERATOR)) throw new Error("openapi-mcp-generator is not installed (a devDependency): npm ci");
  const [a, b] = (await interleave([kervan, baseline], rounds, 0)).map(median) as [number, number];
  const section = `Issue 26: gen + bundle of ${n.toLocaleString("en-US")} tools vs openapi-mcp-generator generate + tsc`;
  return [{ section, name: `gen + bundle, ${n.toLocaleString("en-US")} tools, vs openapi-mcp-generator generate + tsc`, ratio: a / b, target: { op: "≤", value: 0.5, note: "issue 26" }, subject: ms(a), baseline: ms(b) }];
}

/** One tool's description changed (a different tool each round), then gen onto the previous output vs into a fresh folder. */
export async function benchFloorIncremental(n = 1000, rounds = 3): Promise<Row[]> {
  const root = tempDir("incremental");
  const spec = join(root, "spec.yaml");
  const original = execSpec(n);
  writeFileSync(spec, original);
  const kept = join(root, "kept");
  await gen(spec, kept);
  const tools = syntheticTools(n);
  let round = 0;
  let k = 0;
  const edit = () => {
    const t = tools[(round * 397) % n]!;
    writeFileSync(spec, original.replace(JSON.stringify(t.description), JSON.stringify(`${t.description} Edit ${++round}.`)));
  };
  const changed = async () => {
    edit();
    const t = performance.now();
    await gen(spec, kept);
    return performance.now() - t;
  };
  const fresh = async () => {
    const out = join(root, `fresh-${++k}`);
    const t = performance.now();
    await gen(spec, out);
    const elapsed = performance.now() - t;
    rmSync(out, { recursive: true, force: true });
    return elapsed;
  };
  const [a, b] = (await interleave([changed, fresh], rounds, 0)).map(median) as [number, number];
  const section = `Issue 26: gen after one tool of a ${n.toLocaleString("en-US")}-tool spec changed vs a fresh build`;
  return [{ section, name: `gen after one tool of a ${n.toLocaleString("en-US")}-tool spec changed vs a fresh build`, ratio: a / b, target: { op: "≤", value: 0.2, note: "issue 26" }, subject: ms(a), baseline: ms(b) }];
}

async function peak(args: string[]): Promise<number> {
  const { stderr } = await run(NODE, [RSS, ...args], { cwd: REPO });
  const m = /kervan-bench-maxrss (\d+)/.exec(stderr);
  if (!m) throw new Error(`no peak memory reported:\n${stderr.slice(-2000)}`);
  return Number(m[1]) * 1024;
}

const MIB = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`;
/** Issue 26's budget: memory, not time, so an absolute figure rather than a ratio to a peer. */
const BUDGET = 300 * MIB;

export async function benchFloorGithubMemory(): Promise<Row[]> {
  const root = tempDir("github-mem");
  const doc = join(root, "api.github.com.json");
  writeFileSync(doc, gunzipSync(readFileSync(join(REPO, "test/fixtures/openapi/corpus/api.github.com.json.gz"))));
  const spec = join(root, "github.yaml");
  await run(NODE, [KERVAN, "import", doc, "--name", "github", "--out", spec, "--max-tools", "5000"], { cwd: REPO });
  const kervan = await peak([KERVAN, "gen", spec, "--out", join(root, "out")]);
  if (!existsSync(join(root, "out", "github", "server.mjs"))) throw new Error("kervan gen wrote no server for the imported GitHub spec");
  const omg = existsSync(OPENAPI_MCP_GENERATOR) ? await peak([OPENAPI_MCP_GENERATOR, "-i", doc, "-o", join(root, "omg"), "--force"]) : NaN;
  const section = "Issue 26: peak memory (maxRSS) of kervan gen on GitHub's imported REST spec";
  return [
    { section, name: "GitHub gen peak memory vs the 300 MiB budget", ratio: kervan / BUDGET, target: { op: "≤", value: 1, note: "issue 26: 300 MiB" }, subject: mib(kervan), baseline: mib(BUDGET) },
    { section, name: "GitHub gen peak memory vs openapi-mcp-generator generate of the same document", ratio: kervan / omg, subject: mib(kervan), baseline: Number.isFinite(omg) ? mib(omg) : "not installed" },
  ];
}
