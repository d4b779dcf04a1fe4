// The emitted sources are real, typed TypeScript: every checked-in server's src/ type-checks in
// strict mode against the runtime it is bundled with (the bundler itself checks no types).
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";

describe("emitted TypeScript", () => {
  it("type-checks in strict mode", () => {
    const r = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "test/fixtures/tsconfig.emitted.json"], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 120_000);
});
