// Issue 26: every row of its table, each against its floor or peer measured in the same run
// (`npm run bench -- --only floor`). `--parts start,stdio,serving,http,validate,gen,incremental,memory`
// runs a subset (a trial; partial runs are not written to results.json).
import { readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { existsSync } from "node:fs";
import { generate } from "../../generator/pipeline.js";
import { readSources } from "../../generator/cli/sources.js";
import { BENCH10_SPEC } from "./startup.bench.js";
import { benchFloorStart, benchFloorStdio } from "./floor-start.js";
import { benchFloorHttpCall, benchFloorServing } from "./floor-http.js";
import { benchFloorValidate } from "./floor-validate.js";
import { benchFloorGen5000, benchFloorGithubMemory, benchFloorIncremental } from "./floor-gen.js";
import { REPO, tempDir, type Row } from "./util.js";

export const FLOOR_PARTS = ["start", "stdio", "serving", "http", "validate", "gen", "incremental", "memory"];

async function build(spec: string, name: string): Promise<string> {
  const outRoot = tempDir(name);
  const result = await generate(readSources([spec]), { outRoot, check: false, pruneServers: false });
  if (result.diagnostics.some((d) => d.severity === "error")) throw new Error(`${spec} does not build`);
  return join(outRoot, name, "server.mjs");
}

const hasBwrap = () => (process.env.PATH ?? "").split(delimiter).some((d) => d && existsSync(join(d, "bwrap")));

/** fixtures/bench10.yaml; where bubblewrap is not installed its tools run with `sandbox: none` (the server would refuse to start). */
function bench10Spec(): string {
  if (hasBwrap()) return BENCH10_SPEC;
  const spec = join(tempDir("bench10-spec"), "bench10.yaml");
  writeFileSync(spec, readFileSync(BENCH10_SPEC, "utf8").replace(/exec: \{ /g, "exec: { sandbox: none, ").replace(/^    exec:$/gm, "    exec:\n      sandbox: none"));
  return spec;
}

export async function benchFloor(parts: string[] = FLOOR_PARTS, progress: (s: string) => void = () => {}): Promise<Row[]> {
  const want = new Set(parts);
  const rows: Row[] = [];
  const step = async (part: string, fn: () => Promise<Row[]>) => {
    if (!want.has(part)) return;
    progress(`floor: ${part} ...`);
    rows.push(...(await fn()));
  };
  // Built from the templates of this tree (not out/), so a runtime change is measured at once.
  const needServers = ["start", "stdio", "serving"].some((p) => want.has(p));
  const validator = needServers ? await build(join(REPO, "specs/validator.yaml"), "validator") : "";
  const bench10 = want.has("start") ? await build(bench10Spec(), "bench10") : "";
  if (want.has("start") && !hasBwrap()) progress("floor: bubblewrap is not installed: the 10-tool server's tools run with sandbox: none");
  await step("start", () => benchFloorStart({ bench10, validator }));
  await step("stdio", () => benchFloorStdio(validator));
  await step("serving", () => benchFloorServing(validator));
  await step("http", () => benchFloorHttpCall());
  await step("validate", () => benchFloorValidate());
  await step("gen", () => benchFloorGen5000());
  await step("incremental", () => benchFloorIncremental());
  await step("memory", () => benchFloorGithubMemory());
  return rows;
}
