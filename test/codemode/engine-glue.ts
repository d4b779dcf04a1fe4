// What a code-mode bundle may carry beyond plain runtime code: the QuickJS engine's emscripten glue,
// which loads Node's own `module` to make a require for three built-ins, and its one embedded
// WebAssembly module. Everything else the bundle scan forbids stays forbidden.
import { createHash } from "node:crypto";
import { runInNewContext } from "node:vm";

/** The dynamic imports the engine glue makes: Node's `module` (for createRequire), once. */
export const GLUE_IMPORTS = ['"module"'];
/** The built-ins the glue's own require loads. */
export const GLUE_REQUIRES = ['"node:fs"', '"node:path"', '"node:url"'];

const WASM_LITERAL = /`(\\0asm(?:[^`\\]|\\[\s\S])*)`/g;

/** The bundle with each embedded module's bytes taken out, so the code scans read code, not data. */
export function withoutWasm(code: string): string {
  return code.replace(WASM_LITERAL, "``");
}

const all = (code: string, re: RegExp) => [...code.matchAll(re)].map((m) => m[1]);

/** The arguments of the glue's require (esbuild names it require2 beside its own __require shim). */
export function glueRequires(code: string): string[] {
  return all(code, /(?<![\w$.])require\d+\(\s*([^)]*)\)/g).sort();
}

/** Each WebAssembly module the bundle embeds as a string: its bytes' sha256, and whether it validates. */
export function embeddedWasm(code: string): { sha256: string; valid: boolean }[] {
  const magic = code.split("\\0asm").length - 1 + (code.split("AGFzbQ").length - 1);
  const found = [...code.matchAll(WASM_LITERAL)].map((m) => {
    // The literal's cooked value, as the engine itself reads it; then the glue's own decoding of it.
    const text = runInNewContext(`\`${m[1]}\``, {}, { timeout: 5000 }) as string;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) { const f = text.charCodeAt(i); bytes[i] = (~f >> 8) & f; }
    return { sha256: createHash("sha256").update(bytes).digest("hex"), valid: WebAssembly.validate(bytes) };
  });
  // A module's magic number anywhere else (escaped or base64) is a module the scan cannot see.
  if (magic !== found.length) throw new Error(`${magic} WebAssembly magic numbers, ${found.length} readable modules`);
  return found;
}
