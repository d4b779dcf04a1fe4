// Builds test/fixtures/codemode/shop.yaml with the real CLI, as flat tools or in code mode (optionally
// with program limits), into a temporary folder; returns the bundle's path.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function generateShop(exposure: "tools" | "code", code = ""): string {
  const dir = mkdtempSync(join(tmpdir(), `kervan-codemode-${exposure}-`));
  const spec = readFileSync("test/fixtures/codemode/shop.yaml", "utf8").replace("exposure: tools", `exposure: ${exposure}${code ? `\n  code: ${code}` : ""}`);
  writeFileSync(join(dir, "shop.yaml"), spec);
  const gen = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", join(dir, "shop.yaml"), "--out", join(dir, "out")], { encoding: "utf8" });
  if (gen.status !== 0) throw new Error(`kervan gen failed:\n${gen.stdout}${gen.stderr}`);
  return join(dir, "out/shop-code/server.mjs");
}
