// `kervan gen --verbose` names every stage with its time, in pipeline order; without it, none.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const gen = (...args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", "gen", "specs/validator.yaml", "--out", mkdtempSync(join(tmpdir(), "kervan-verbose-")), ...args], { encoding: "utf8" });

describe("gen --verbose", () => {
  it("prints each stage's name and time, in order", () => {
    const r = gen("--verbose");
    expect(r.status).toBe(0);
    const stages = [...r.stderr.matchAll(/^kervan: stage (.+) (\d+\.\d) ms$/gm)].map((m) => m[1]);
    expect(stages).toEqual(["cache", "load", "check", "normalize", "lint", "plan", "cache validator", "emit validator", "bundle validator", "manifest + audit validator", "write"]);
  }, 60_000);

  it("under --strict, lints before building too", () => {
    const r = gen("--verbose", "--strict");
    expect(r.status).toBe(0);
    const stages = [...r.stderr.matchAll(/^kervan: stage (.+) (\d+\.\d) ms$/gm)].map((m) => m[1]);
    expect(stages.slice(0, 5)).toEqual(["load", "check", "normalize", "lint", "plan"]);
  }, 60_000);

  it("prints no stage lines without it", () => {
    const r = gen();
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/stage/);
  }, 60_000);
});
