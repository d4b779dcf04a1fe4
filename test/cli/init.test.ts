// `kervan init` writes a starter spec that builds under --strict and never overwrites a file.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const kervan = (...args: string[]) => spawnSync(process.execPath, ["bin/kervan.mjs", ...args], { encoding: "utf8" });

describe("kervan init", () => {
  it("writes a starter spec that generates cleanly under --strict", () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-init-"));
    const made = kervan("init", "demo", "--dir", join(dir, "specs"));
    expect(made.status).toBe(0);
    const spec = readFileSync(join(dir, "specs/demo.yaml"), "utf8");
    expect(spec).toMatch(/^# yaml-language-server: \$schema=.*kervan\.schema\.json/);
    const gen = kervan("gen", join(dir, "specs"), "--out", join(dir, "out"), "--strict");
    expect(gen.stderr).not.toMatch(/error|warning/);
    expect(gen.status).toBe(0);
    expect(existsSync(join(dir, "out/demo/server.mjs"))).toBe(true);
    const again = kervan("init", "demo", "--dir", join(dir, "specs"));
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/already exists/);
  });

  it("refuses a server name that cannot be a folder under out/", () => {
    const r = kervan("init", "My Server", "--dir", mkdtempSync(join(tmpdir(), "kervan-init-")));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/must match/);
  });
});
