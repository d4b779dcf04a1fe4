// bundle: the emitted sources (still in memory) plus the runtime templates -> one ESM file per
// server that imports nothing but Node built-ins. Paths in the bundle are relative to the
// package root, so the bytes do not depend on where the project is cloned.
import { build, type Metafile, type Plugin } from "esbuild";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, posix } from "node:path";
import type { EmittedFile, BundleResult } from "./model/output.js";
import type { ServerPlan } from "./model/plan.js";
import { PACKAGE_ROOT } from "./paths.js";
import { runtimeModules } from "./kinds/index.js";
import { header } from "./emit/header.js";

// Named like the checked-in folder so comments in the bundle point at the real emitted sources.
const VIRTUAL_ROOT = join(PACKAGE_ROOT, "out");

/** Serves emitted files from memory under a fixed virtual folder. */
function emittedFiles(files: EmittedFile[]): Plugin {
  const byPath = new Map(files.map((f) => [join(VIRTUAL_ROOT, f.path), f.contents]));
  return {
    name: "kervan-emitted",
    setup(b) {
      b.onResolve({ filter: /^(\.\.?\/|\/)/ }, (args) => {
        if (args.kind === "entry-point") return byPath.has(args.path) ? { path: args.path } : undefined;
        if (!args.importer.startsWith(VIRTUAL_ROOT)) return undefined;
        let path = posix.join(posix.dirname(args.importer), args.path);
        if (!byPath.has(path) && path.endsWith(".js")) path = path.slice(0, -3) + ".ts";
        return byPath.has(path) ? { path } : { errors: [{ text: `emitted file not found: ${args.path}` }] };
      });
      b.onLoad({ filter: /.*/ }, (args) => {
        const contents = byPath.get(args.path);
        if (contents === undefined) return undefined;
        // Packages resolve from Kervan's own root: the virtual folder may not exist on disk yet.
        return { contents, loader: args.path.endsWith(".ts") ? "ts" : "js", resolveDir: PACKAGE_ROOT };
      });
    },
  };
}

function packagesOf(meta: Metafile): Record<string, string> {
  const found: Record<string, string> = {};
  for (const input of Object.keys(meta.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (!m || found[m[1]]) continue;
    try {
      found[m[1]] = JSON.parse(readFileSync(join(PACKAGE_ROOT, "node_modules", m[1], "package.json"), "utf8")).version;
    } catch {
      found[m[1]] = "unknown";
    }
  }
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** `@kervan/runtime` and each kind's runtime module (`@kervan/kinds/<key>`), resolved to their files. */
function runtimeAliases(): Record<string, string> {
  return Object.fromEntries(Object.entries(runtimeModules()).map(([specifier, file]) => [specifier, join(PACKAGE_ROOT, file)]));
}
/**
 * The Redis client is CommonJS and requires Node built-ins; an ESM bundle has no `require`, so a server
 * that bundles it gets one (only those servers: the others' bytes stay as they were).
 */
const CJS_REQUIRE = '\nimport { createRequire as __kervanCreateRequire } from "node:module";\nconst require = __kervanCreateRequire(import.meta.url);';

export async function bundleServer(plan: ServerPlan, files: EmittedFile[]): Promise<BundleResult> {
  const entry = join(VIRTUAL_ROOT, plan.dir, "src/server.ts");
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: PACKAGE_ROOT,
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: join(VIRTUAL_ROOT, plan.dir, "server.mjs"),
    alias: runtimeAliases(),
    external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
    plugins: [emittedFiles(files)],
    banner: { js: `${header(plan.server.origin.file)}\n` + (plan.server.tasks?.store === "redis" ? CJS_REQUIRE : "") },
    legalComments: "inline",
    metafile: true,
    logLevel: "silent",
    charset: "utf8",
  });
  const out = result.outputFiles[0];
  return { server: plan.server.name, path: `${plan.dir}/server.mjs`, contents: out.text, packages: packagesOf(result.metafile) };
}
