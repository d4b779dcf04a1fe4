import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

const INCLUDE = "test/**/*.test.ts";

/** Every test file under `dir`, as a path from the repository root. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : testFiles(path);
    return e.name.endsWith(".test.ts") ? [path] : [];
  });
}

// A test file that adds kinds to the process's kind registry (the fixture kinds of test/fixtures/kinds)
// changes what every later build in that process sees: those files run isolated, each with modules of
// its own. Every other file shares its worker's loaded modules with the files before it (vitest's
// isolate: false), which spares each file loading the generator and its packages again: about a
// quarter of npm test's time on two cores.
const ISOLATED = testFiles("test").filter((f) => /addFixtureKinds|addKind\(/.test(readFileSync(f, "utf8")));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two test files at a time, whatever the core count (vitest's default leaves one core idle, so
    // a 2-core machine would run one file at a time): most files wait on child processes (servers,
    // sandboxes, nginx, Redis) far more than they compute.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "shared", include: [INCLUDE], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: "isolated", include: ISOLATED, isolate: true } },
    ],
  },
});
