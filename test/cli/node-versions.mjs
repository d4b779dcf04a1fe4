// `npm run node-versions`: the generator and the generated servers under Node 22 and 24 as well as the
// machine's Node (issue 25, item 6). Under each runtime: one full `kervan gen specs --check`, which
// compares every byte of a fresh build with the checked-in out/, and the wire tests of every out/ server
// (test/cli/out-servers.test.ts and test/e2e, whose servers run on the same runtime as vitest). Any
// differing byte, any test that does not pass, or any test whose outcome differs between runtimes
// fails the run. Node 22 and 24 come from the `node` npm package through npx (npm's cache; nothing but
// the npm registry is reached).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "../..");
const WIRE_TESTS = ["test/cli/out-servers.test.ts", "test/e2e"];
const VERSIONS = (process.env.KERVAN_NODE_VERSIONS ?? "22,24").split(",").filter(Boolean);
const work = mkdtempSync(join(tmpdir(), "kervan-node-versions-"));

/** The node binary of the `node@MAJOR` npm package. */
function runtimeOf(major) {
  const r = spawnSync("npm", ["exec", "--yes", `--package=node@${major}`, "--", "node", "-p", "process.execPath + ' ' + process.version"], { cwd: work, encoding: "utf8" });
  const [bin, version] = r.stdout.trim().split(/\s+/).slice(-2);
  if (r.status !== 0 || !version?.startsWith(`v${major}.`)) throw new Error(`cannot get node@${major} from npm:\n${r.stderr}`);
  return { bin, version };
}

/**
 * One full `kervan gen specs --out out --check` (a build from scratch that never trusts the cache and
 * writes nothing): the files that differ from the checked-in out/, or the failure.
 */
function genDiff(runtime) {
  const r = spawnSync(runtime.bin, ["bin/kervan.mjs", "gen", "specs", "--out", "out", "--check"], { cwd: ROOT, encoding: "utf8" });
  if (r.status === 0 && /no drift/.test(r.stderr)) return [];
  const listed = r.stderr.split("\n").filter((l) => l.startsWith("  ")).map((l) => l.trim());
  return listed.length ? listed : [`kervan gen --check exited ${r.status}:\n${r.stderr}`];
}

/** Each wire test's outcome by its full name. */
function wireTests(runtime, label) {
  const file = join(work, `wire-${label}.json`);
  const r = spawnSync(runtime.bin, ["node_modules/vitest/vitest.mjs", "run", ...WIRE_TESTS, "--reporter=json", `--outputFile=${file}`], { cwd: ROOT, encoding: "utf8" });
  let report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return { error: `vitest wrote no report (exit ${r.status}):\n${r.stdout.slice(-4000)}${r.stderr.slice(-4000)}` };
  }
  const outcomes = new Map();
  for (const f of report.testResults) for (const t of f.assertionResults) outcomes.set(`${relative(ROOT, f.name)} > ${t.fullName}`, t.status);
  return { outcomes, exit: r.status };
}

const started = performance.now();
const runtimes = [{ label: "machine", bin: process.execPath, version: process.version }, ...VERSIONS.map((v) => ({ label: `node${v}`, ...runtimeOf(v) }))];
const failures = [];
let baseline;
for (const rt of runtimes) {
  const t0 = performance.now();
  const diff = genDiff(rt);
  for (const d of diff) failures.push(`${rt.version}: gen: ${d}`);
  const wire = wireTests(rt, rt.label);
  if (wire.error) failures.push(`${rt.version}: ${wire.error}`);
  else {
    const notPassed = [...wire.outcomes].filter(([, s]) => s !== "passed");
    for (const [name, s] of notPassed) failures.push(`${rt.version}: ${s}: ${name}`);
    if (wire.exit !== 0 && !notPassed.length) failures.push(`${rt.version}: vitest exited ${wire.exit}`);
    if (!baseline) baseline = { version: rt.version, outcomes: wire.outcomes };
    else {
      for (const [name, s] of baseline.outcomes) if (wire.outcomes.get(name) !== s) failures.push(`${rt.version}: ${name}: ${wire.outcomes.get(name) ?? "absent"} (${baseline.version}: ${s})`);
      for (const name of wire.outcomes.keys()) if (!baseline.outcomes.has(name)) failures.push(`${rt.version}: ${name}: only here`);
    }
  }
  const count = wire.outcomes?.size ?? 0;
  console.log(`node-versions: ${rt.version}: gen ${diff.length ? `${diff.length} files differ` : "same bytes as out/"}, ${count} wire tests, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
rmSync(work, { recursive: true, force: true });
console.log(`node-versions: ${runtimes.map((r) => r.version).join(", ")} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (failures.length) {
  console.error(`node-versions: ${failures.length} differences:\n${failures.map((f) => `  ${f}`).join("\n")}`);
  process.exit(1);
}
