// npm run conformance: generates the conformance fixture spec with `kervan gen`, starts its http
// tools' fixture upstream and the generated server over Streamable HTTP, and runs the official MCP
// conformance suite (server side) against it for revision 2026-07-28 and again for 2025-11-25, then
// by name each pending scenario the server passes (not scored by the requirement sets) and each
// scenario of the tasks extension (io.modelcontextprotocol/tasks).
// Exits non-zero on any unexpected result.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startUpstream } from "./upstream.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const here = dirname(fileURLToPath(import.meta.url));
const work = join(root, "test/.tmp/conformance");
const REVISIONS = ["2026-07-28", "2025-11-25"];
const SPEC = "test/fixtures/conformance/conformance.yaml";
const OUT = join(root, "test/.tmp/conformance-out");

/** The server under test: generated from the conformance fixture spec by the real CLI. */
function getServerBundle() {
  const gen = spawnSync(process.execPath, [join(root, "bin/kervan.mjs"), "gen", SPEC, "--out", OUT], { cwd: root, encoding: "utf8" });
  if (gen.status !== 0) throw new Error(`kervan gen failed (exit ${gen.status}):\n${gen.stdout}${gen.stderr}`);
  return join(OUT, "kervan-conformance/server.mjs");
}

/** The generated server, its http tools repointed at the fixture upstream through their baseUrlEnv. */
function startServer(bundle, upstream) {
  const env = { ...process.env, KERVAN_CONFORMANCE_UPSTREAM: upstream };
  const proc = spawn(process.execPath, [bundle, "--http", "0", "--host", "127.0.0.1"], { stdio: ["ignore", "ignore", "pipe"], env });
  let err = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${err}`)), 10_000);
    proc.stderr.on("data", (chunk) => {
      err += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve({ proc, url: match[1] });
      }
    });
    proc.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${err}`)));
  });
}

/**
 * The official runner needs Node 22 (fs.globSync) while Kervan runs on Node 20, so neither is a
 * dependency of the project: npx brings both, pinned, into its own cache on first use (the `node`
 * package puts a Node 22 binary first on the PATH it runs the runner's `#!/usr/bin/env node` with).
 */
const RUNNER = ["-y", "-p", "node@22.23.3", "-p", "@modelcontextprotocol/conformance@0.2.0-alpha.12", "conformance"];

/**
 * Scenarios a revision runs but does not score (its requirement set's `not_scored`, as pending) that
 * this server passes: a --requirements run reports them and never fails on them, so each is run by
 * name at its revision, where a regression fails the run like any other.
 */
const PENDING = {
  "2026-07-28": ["json-schema-2020-12", "http-header-validation", "http-custom-header-server-validation"],
  "2025-11-25": ["json-schema-2020-12", "server-sse-polling", "server-session-lifecycle"],
};

/** Extension scenarios are outside every revision's requirement set; the tasks extension's are run by name. */
function taskScenarios() {
  const listed = spawnSync("npx", [...RUNNER, "list", "--server"], { encoding: "utf8", cwd: work });
  const names = [...listed.stdout.matchAll(/^\s+- (tasks-\S+) \[extension\]$/gm)].map((m) => m[1]);
  if (names.length === 0) throw new Error(`the conformance runner lists no tasks-* extension scenarios:\n${listed.stdout}${listed.stderr}`);
  return names;
}

/** One run: a revision's requirement set, or one scenario by name (at a revision when given). */
function runSuite(url, revision, scenario) {
  const dir = join(work, scenario ? `${scenario}${revision ? `@${revision}` : ""}` : revision);
  rmSync(dir, { recursive: true, force: true }); // -o DIR holds this run's results only
  const select = scenario ? ["--scenario", scenario, ...(revision ? ["--spec-version", revision] : [])] : ["--requirements", revision];
  const args = [...RUNNER, "server", "--url", url, ...select, "--expected-failures", join(here, "expected-failures.yaml"), "-o", dir];
  return new Promise((resolve) => {
    const child = spawn("npx", args, { stdio: ["ignore", "pipe", "pipe"], cwd: work });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    // A scenario by name that does not apply at the revision is skipped with exit 0: that is no pass.
    child.on("exit", (code) => resolve({ code: code === 0 && scenario && /^SKIPPED:/m.test(out) ? "skipped" : code, out }));
  });
}

/** Totals, baseline verdict and anything unexpected; the per-scenario detail is in -o DIR (or CONFORMANCE_VERBOSE=1). */
function summarize(out) {
  const keep = /^Total:|Baseline|Unexpected|[Ss]tale|^\s+✗/;
  // eslint-disable-next-line no-control-regex
  return out
    .split("\n")
    .map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""))
    .filter((l) => keep.test(l))
    // The runner counts expected failures as failed; say which they are, so no reader takes the
    // total for a failing run.
    .map((l) => l.replace(/^Total: (\d+) passed, (\d+) failed$/, "checks: $1 passed; $2 failed as expected (each listed in expected-failures.yaml)"))
    .join("\n");
}

mkdirSync(work, { recursive: true });
const bundle = getServerBundle();
const upstream = await startUpstream();
const { proc, url } = await startServer(bundle, upstream.origin);
let failed = false;
try {
  for (const revision of REVISIONS) {
    const { code, out } = await runSuite(url, revision);
    if (process.env.CONFORMANCE_VERBOSE) process.stdout.write(out);
    process.stdout.write(`\n=== conformance ${revision}: ${code === 0 ? "OK" : `FAILED (exit ${code})`}\n${summarize(out)}\n`);
    if (code !== 0) failed = true;
  }
  for (const [revision, scenarios] of Object.entries(PENDING)) {
    for (const scenario of scenarios) {
      const { code, out } = await runSuite(url, revision, scenario);
      if (process.env.CONFORMANCE_VERBOSE) process.stdout.write(out);
      process.stdout.write(`\n=== conformance ${scenario} (${revision}, not scored there): ${code === 0 ? "OK" : `FAILED (${code === "skipped" ? "skipped" : `exit ${code}`})`}\n${summarize(out)}\n`);
      if (code !== 0) failed = true;
    }
  }
  for (const scenario of taskScenarios()) {
    const { code, out } = await runSuite(url, undefined, scenario);
    if (process.env.CONFORMANCE_VERBOSE) process.stdout.write(out);
    process.stdout.write(`\n=== conformance ${scenario} (tasks extension): ${code === 0 ? "OK" : `FAILED (exit ${code})`}\n${summarize(out)}\n`);
    if (code !== 0) failed = true;
  }
} finally {
  proc.kill("SIGTERM");
  await upstream.close();
}
process.exitCode = failed ? 1 : 0;
