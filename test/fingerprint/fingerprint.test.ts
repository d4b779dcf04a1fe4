// The incremental cache trusts the generator's fingerprint: a package that goes into a bundle must be
// part of it (directly, or pinned by a package that is), or a new version of it would leave a cached
// server stale while `kervan gen` reports it unchanged.
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fingerprintPackages } from "../../generator/fingerprint.js";

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));

/** The package names reachable from `roots` through the lockfile's dependency lists. */
function closure(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const entry = lock.packages[`node_modules/${name}`];
    for (const dep of Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies })) queue.push(dep);
  }
  return seen;
}

describe("generator fingerprint", () => {
  it("covers every package bundled into a server in out/", () => {
    const covered = closure(fingerprintPackages());
    const bundled = readdirSync("out").flatMap((dir) => Object.keys(JSON.parse(readFileSync(join("out", dir, "kervan.manifest.json"), "utf8")).bundle.packages));
    expect(bundled.length).toBeGreaterThan(0);
    expect([...new Set(bundled)].filter((name) => !covered.has(name))).toEqual([]);
  });

  it("covers the packages only optional runtimes bundle: jose, the Redis client, the OpenTelemetry SDK", () => {
    const covered = closure(fingerprintPackages());
    for (const name of ["jose", "@redis/client", "@opentelemetry/sdk-trace", "@opentelemetry/exporter-trace-otlp-http"]) expect(covered).toContain(name);
  });
});
