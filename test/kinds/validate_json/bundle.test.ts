// The production shape: one esbuild bundle that starts its regex-matcher worker from itself, imports
// only Node built-ins, and contains no eval or new Function.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bundleEntry } from "../../helpers/bundle.js";

describe("validate_json in one bundle", () => {
  it("runs its matcher worker from the bundle itself", async () => {
    const file = await bundleEntry(fileURLToPath(new URL("./self-bundle-entry.ts", import.meta.url)));
    const out = JSON.parse(execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 20_000 }));
    expect(out.ok).toEqual({ valid: true, feedback: null });
    expect(out.evil).toMatch(/^Refused: pattern matching for this document ran out of its shared 500 ms budget on the pattern "\^\(a\+\)\+\$"/);
    const code = readFileSync(file, "utf8");
    expect(code).not.toMatch(/new Function|\beval\(|eval: true/);
    const imports = [...code.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]);
    expect(imports.every((s) => s.startsWith("node:"))).toBe(true);
  });
});
