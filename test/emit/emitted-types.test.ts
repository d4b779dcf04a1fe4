// The emitted sources are real, typed TypeScript: every checked-in server's src/ type-checks in
// strict mode against the runtime it is bundled with (the bundler itself checks no types), through
// the tsconfig.json emitted beside it, the one an editor opens.
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const servers = readdirSync("out").filter((d) => existsSync(join("out", d, "kervan.manifest.json"))).sort();

describe("emitted TypeScript", () => {
  it("every server carries a tsconfig.json", () => {
    expect(servers.length).toBeGreaterThanOrEqual(5);
    for (const s of servers) expect(existsSync(join("out", s, "tsconfig.json")), s).toBe(true);
  });

  it("type-checks in strict mode, the runtime imports resolved by the emitted tsconfig", () => {
    // The servers' tsconfigs are the same bytes: one tsc run over every server's sources through
    // one of them (tsc -b would leave build info files in out/).
    const configs = servers.map((s) => readFileSync(join("out", s, "tsconfig.json"), "utf8"));
    expect(new Set(configs).size).toBe(1);
    mkdirSync("test/.tmp", { recursive: true });
    const all = "test/.tmp/tsconfig.emitted.json";
    writeFileSync(all, JSON.stringify({ extends: `../../out/${servers[0]}/tsconfig.json`, include: ["../../out/*/src/**/*.ts", "../../out/*/src/**/*.mts"] }));
    const r = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", all], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 180_000);
});
