// npm run conformance: runs the official MCP conformance suite (server side, over HTTP) against a Kervan
// server bundle, for revision 2026-07-28 and again for 2025-11-25. Exits non-zero on any unexpected result.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../..", import.meta.url));
const here = dirname(fileURLToPath(import.meta.url));
const work = join(root, "test/.tmp/conformance");
const REVISIONS = ["2026-07-28", "2025-11-25"];

/** The server under test. Today a hand-written fixture entry; later a generated server from a spec. */
async function getServerBundle() {
  const outfile = join(work, "server.mjs");
  await build({
    entryPoints: [join(here, "fixture-server.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    alias: { "@kervan/runtime": join(root, "templates/runtime/index.ts") },
    logLevel: "warning",
  });
  return outfile;
}

function startServer(bundle) {
  const proc = spawn(process.execPath, [bundle, "--http", "0", "--host", "127.0.0.1"], { stdio: ["ignore", "ignore", "pipe"] });
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

/** The runner needs Node 22 (fs.globSync); the `node` devDependency provides it without touching the system Node. */
function runSuite(url, revision) {
  const node22 = join(root, "node_modules/.bin/node");
  const runner = join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
  const args = [runner, "server", "--url", url, "--requirements", revision, "--expected-failures", join(here, "expected-failures.yaml"), "-o", join(work, revision)];
  return new Promise((resolve) => {
    const child = spawn(node22, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** Totals, baseline verdict and anything unexpected; the per-scenario detail is in -o DIR (or CONFORMANCE_VERBOSE=1). */
function summarize(out) {
  const keep = /^Total:|Baseline|Unexpected|[Ss]tale|^\s+✗/;
  // eslint-disable-next-line no-control-regex
  return out.split("\n").map((l) => l.replace(/\x1b\[[0-9;]*m/g, "")).filter((l) => keep.test(l)).join("\n");
}

mkdirSync(work, { recursive: true });
const bundle = await getServerBundle();
const { proc, url } = await startServer(bundle);
let failed = false;
try {
  for (const revision of REVISIONS) {
    const { code, out } = await runSuite(url, revision);
    if (process.env.CONFORMANCE_VERBOSE) process.stdout.write(out);
    process.stdout.write(`\n=== conformance ${revision}: ${code === 0 ? "OK" : `FAILED (exit ${code})`}\n${summarize(out)}\n`);
    if (code !== 0) failed = true;
  }
} finally {
  proc.kill("SIGTERM");
}
process.exitCode = failed ? 1 : 0;
