// Generation of GitHub's whole REST description as a catalog (`kervan import --exposure catalog` +
// `kervan gen`, fresh processes into fresh folders) against openapi-mcp-generator's generate + `tsc`
// of the same document, interleaved in the same run (a row of catalog.bench.ts).
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { OPENAPI_MCP_GENERATOR, openApiGenerate, prepareProject, tscBuild } from "./fixtures/openapi-project.js";
import { NODE, REPO, interleave, median, ms, run, type BenchRow } from "./util.js";

const KERVAN = join(REPO, "bin/kervan.mjs");

/** `doc` is the API description as a file; `dir` a scratch folder. */
export async function benchCatalogGen(doc: string, dir: string, rounds = 2): Promise<BenchRow> {
  let n = 0;
  const gens: number[] = [];
  const subject = async (): Promise<number> => {
    const out = join(dir, `gen-kervan-${++n}`);
    const spec = join(out, "github.yaml");
    const t = performance.now();
    await run(NODE, [KERVAN, "import", doc, "--name", "github", "--exposure", "catalog", "--out", spec], { cwd: REPO });
    const g = performance.now();
    await run(NODE, [KERVAN, "gen", spec, "--out", join(out, "out")], { cwd: REPO });
    const done = performance.now();
    if (!existsSync(join(out, "out/github/server.mjs"))) throw new Error("kervan gen wrote no server for the GitHub catalog");
    gens.push(done - g);
    rmSync(out, { recursive: true, force: true });
    return done - t;
  };
  const baseline = async (): Promise<number> => {
    const project = join(dir, `gen-omg-${++n}`);
    const t = performance.now();
    await openApiGenerate(doc, project);
    const generated = performance.now() - t;
    prepareProject(project); // its node_modules, untimed (our stand-in for `npm install`)
    const t2 = performance.now();
    await tscBuild(project);
    const built = performance.now() - t2;
    rmSync(project, { recursive: true, force: true });
    return generated + built;
  };
  const name = "GitHub whole as a catalog: kervan import + gen vs openapi-mcp-generator generate + tsc, same document";
  if (!existsSync(OPENAPI_MCP_GENERATOR)) {
    const [k] = (await interleave([subject], rounds, 0)).map(median) as [number];
    return { name, ratio: NaN, detail: `target ≤ 0.5×; median ${ms(k)} vs n/a (openapi-mcp-generator is not installed)` };
  }
  const [k, b] = (await interleave([subject, baseline], rounds, 0)).map(median) as [number, number];
  return { name, ratio: k / b, detail: `target ≤ 0.5×; median ${ms(k)} vs ${ms(b)} (kervan gen alone ${ms(median(gens))})` };
}
