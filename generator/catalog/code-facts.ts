// What AUDIT.md and the manifest say of a server with exposure: code: the engine that runs
// caller-supplied programs, the one WebAssembly module the bundle carries (its sha256, read from the
// engine package's embedded bytes and checked to be a valid module) and the program limits.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createHash } from "node:crypto";
import type { ServerIR } from "../model/ir.js";
import { CODE_DEFAULTS } from "../../templates/runtime/codemode/limits.js";
import { once } from "../shared/once.js";

export const ENGINE_PACKAGE = "@jitl/quickjs-singlefile-mjs-release-sync";
const require = createRequire(import.meta.url);

const ESCAPES: Record<string, string> = { "0": "\0", n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v" };

/** The characters of a template literal's cooked value (the escapes esbuild and emscripten write). */
function cooked(raw: string): string {
  return raw.replace(/\\(x[0-9A-Fa-f]{2}|u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|\r\n|[\s\S])/g, (_, e: string) => {
    if (e[0] === "x") return String.fromCharCode(parseInt(e.slice(1), 16));
    if (e[0] === "u" && e.length > 1) return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ""), 16));
    if (e === "\n" || e === "\r\n" || e === "\r") return "";
    return ESCAPES[e] ?? e;
  });
}

/** The engine package's WebAssembly module: the bytes its single-file build embeds (read once per process). */
export const engineWasm = once((): { package: string; sha256: string; license: string; version: string } => {
  const pkgFile = require.resolve(`${ENGINE_PACKAGE}/package.json`);
  const pkg: { version: string; license: string } = JSON.parse(readFileSync(pkgFile, "utf8"));
  const dist = join(dirname(pkgFile), "dist");
  const loader = /import\("\.\/(emscripten-module[^"]*\.mjs)"\)/.exec(readFileSync(join(dist, "index.mjs"), "utf8"))?.[1];
  if (!loader) throw new Error(`${ENGINE_PACKAGE}: its module loader was not found`);
  const source = readFileSync(join(dist, loader), "latin1");
  const m = /=[A-Za-z_$][\w$]*\(`(\\0asm(?:[^`\\]|\\[\s\S])*)`\)/.exec(source);
  if (!m) throw new Error(`${ENGINE_PACKAGE}: its embedded WebAssembly module was not found`);
  const text = cooked(m[1]);
  const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
  if (!WebAssembly.validate(bytes)) throw new Error(`${ENGINE_PACKAGE}: its embedded bytes are not a valid WebAssembly module`);
  return { package: `${ENGINE_PACKAGE}@${pkg.version}`, sha256: createHash("sha256").update(bytes).digest("hex"), license: pkg.license, version: pkg.version };
});

/** Under server.exposure: code: the engine that runs caller-supplied programs, and their limits. */
export interface CodeFacts {
  /** The JavaScript engine (QuickJS through quickjs-emscripten) and its package. */
  engine: string;
  /** The one WebAssembly module the bundle holds: its package, sha256 and license. */
  wasm: { package: string; sha256: string; license: string };
  limits: Record<string, number>;
  /** What a program reaches: only these operations, through the same path as a tools/call. */
  reaches: string[];
}

export function codeFacts(server: ServerIR): CodeFacts {
  const wasm = engineWasm();
  return {
    engine: `QuickJS (quickjs-emscripten ${wasm.version}, WebAssembly)`,
    wasm: { package: wasm.package, sha256: wasm.sha256, license: wasm.license },
    limits: { ...(server.code ?? CODE_DEFAULTS) },
    reaches: server.tools.map((t) => t.name),
  };
}
