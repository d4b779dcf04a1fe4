// The bundle scan's allowance for code mode is exact: a code-mode bundle of the shop spec, built by the
// real CLI, carries one WebAssembly module whose sha256 is the one its manifest and AUDIT.md record
// (and the engine package's own), the engine glue's `module` import and three built-in requires, and
// nothing else; a flat bundle carries none of it; a second or hidden module is caught.
import { beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Manifest } from "../../generator/audit/types.js";
import { engineWasm } from "../../generator/catalog/code-facts.js";
import { embeddedWasm, glueRequires, GLUE_REQUIRES, withoutWasm } from "./engine-glue.js";
import { generateShop } from "./generate.js";

let code: string;
let flat: string;
let manifest: Manifest;
let audit: string;

beforeAll(() => {
  const bundle = generateShop("code");
  code = readFileSync(bundle, "utf8");
  manifest = JSON.parse(readFileSync(join(dirname(bundle), "kervan.manifest.json"), "utf8"));
  audit = readFileSync(join(dirname(bundle), "AUDIT.md"), "utf8");
  flat = readFileSync(generateShop("tools"), "utf8");
}, 120_000);

describe("code-mode bundle scan", () => {
  it("finds exactly one valid module, the one the manifest, AUDIT.md and the engine package name", () => {
    const sha = manifest.server.code!.wasm.sha256;
    expect(embeddedWasm(code)).toEqual([{ sha256: sha, valid: true }]);
    expect(sha).toBe(engineWasm().sha256);
    expect(audit).toContain(sha);
  });

  it("finds the glue's requires of built-ins only in the code-mode bundle", () => {
    expect(glueRequires(withoutWasm(code))).toEqual(GLUE_REQUIRES);
    expect(glueRequires(flat)).toEqual([]);
    expect(embeddedWasm(flat)).toEqual([]);
    expect(flat).not.toMatch(/import\("module"\)/);
    expect(withoutWasm(code).match(/import\("module"\)/g)).toHaveLength(1);
  });

  it("reads code, not the module's data, once the module is taken out", () => {
    expect(withoutWasm(code).length).toBeLessThan(code.length / 2);
    expect(withoutWasm(code)).not.toContain("\\0asm");
  });

  it("catches a second module, or one hidden in base64", () => {
    const literal = /`\\0asm(?:[^`\\]|\\[\s\S])*`/.exec(code)![0];
    expect(embeddedWasm(`${code}\nconst again = ${literal};`)).toHaveLength(2);
    expect(() => embeddedWasm(`${code}\nconst hidden = "AGFzbQEAAAA=";`)).toThrow(/2 WebAssembly magic numbers, 1 readable/);
    // A changed byte is a different module from the one recorded.
    const changed = code.replace(literal, () => literal.replace("\\0asm", "\\0asm\\0"));
    expect(embeddedWasm(changed)[0]).not.toEqual({ sha256: manifest.server.code!.wasm.sha256, valid: true });
  });
});
