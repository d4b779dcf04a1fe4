// Generated servers run on the user's Node: every package bundled into one must accept the oldest Node
// Kervan supports (package.json `engines.node`). A server built with every optional runtime on
// (OpenTelemetry export, the Redis task store; jose is in every server) bundles the largest set of packages there is.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import semver from "semver";

const ROOT = resolve(".");
const SPEC = `server:
  name: engines-fixture
  version: 0.1.0
  telemetry: otlp
  tasks: { store: redis }
  sandbox: none
tools:
  - name: count_lines
    description: Count the lines of one file. Use it to size a file before reading it.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    task: optional
    input:
      type: object
      properties: { path: { type: string, description: The file to count. } }
      required: [path]
      additionalProperties: false
    exec:
      argv: [wc, -l, "{path}"]
`;

function bundledPackages(): Record<string, { version: string }> {
  const dir = mkdtempSync(join(tmpdir(), "kervan-engines-"));
  writeFileSync(join(dir, "engines.yaml"), SPEC);
  const run = spawnSync(process.execPath, [join(ROOT, "bin/kervan.mjs"), "gen", join(dir, "engines.yaml"), "--out", join(dir, "out")], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`kervan gen failed:\n${run.stdout}${run.stderr}`);
  const manifest = JSON.parse(readFileSync(join(dir, "out/engines-fixture/kervan.manifest.json"), "utf8"));
  return manifest.bundle.packages;
}

/** Every installed copy of `name` at `version` (npm may nest one), from the lockfile. */
function enginesOf(lock: any, name: string, version: string): string[] {
  return Object.entries<any>(lock.packages)
    .filter(([path, p]) => (path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`)) && p.version === version)
    .map(([, p]) => p.engines?.node ?? "*");
}

describe("bundled packages and the supported Node", () => {
  it("every package a server can bundle accepts package.json's oldest Node", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const packages = bundledPackages();
    const names = Object.keys(packages);
    // The optional runtimes are in: the test would prove little otherwise.
    expect(names).toEqual(expect.arrayContaining(["jose", "@redis/client", "@opentelemetry/sdk-trace", "@opentelemetry/exporter-trace-otlp-http"]));
    const refused: string[] = [];
    for (const [name, { version }] of Object.entries(packages)) {
      const ranges = enginesOf(lock, name, version);
      expect(ranges.length, `${name}@${version} is not in package-lock.json`).toBeGreaterThan(0);
      for (const range of ranges) if (!semver.satisfies(oldest, range)) refused.push(`${name}@${version} needs node ${range}`);
    }
    expect(refused, `Kervan supports node ${pkg.engines.node}`).toEqual([]);
  }, 120_000);
});
