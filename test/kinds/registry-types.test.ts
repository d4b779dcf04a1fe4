// The registry is typed by KindConfigs: a kind that declares its config (as each kind folder does
// with `declare module`) but has no registry line does not compile. Proven with tsc on a file that
// declares a kind `ghost` and registers nothing.
import { describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";

describe("the kind registry's type", () => {
  it("refuses to compile while a declared kind has no registry line", () => {
    mkdirSync("test/.tmp/ghost-kind", { recursive: true });
    writeFileSync(
      "test/.tmp/ghost-kind/ghost.ts",
      [
        'import "../../../generator/kinds/index.js";',
        "",
        'declare module "../../../generator/model/ir.js" {',
        "  interface KindConfigs {",
        "    ghost: { haunts: string };",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    writeFileSync("test/.tmp/ghost-kind/tsconfig.json", JSON.stringify({ extends: "../../../tsconfig.json", include: ["ghost.ts"], exclude: [] }));
    const r = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "test/.tmp/ghost-kind/tsconfig.json"], { encoding: "utf8" });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toMatch(/generator\/kinds\/index\.ts\(\d+,\d+\): error TS2741: Property 'ghost' is missing/);
  }, 180_000);
});
