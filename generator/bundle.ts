// bundle: the emitted sources (still in memory) plus the runtime templates -> one ESM file per
// server that imports nothing but Node built-ins. Paths in the bundle are relative to the
// package root, and installed packages always appear under node_modules/ (bundle-packages.ts), so
// the bytes depend neither on where the project is cloned nor on where npm installed Kervan.
import { build, type Plugin } from "esbuild";
import { builtinModules } from "node:module";
import { join, posix } from "node:path";
import type { EmittedFile, BundleResult, LaterFile } from "./model/output.js";
import type { ServerPlan } from "./model/plan.js";
import type { BundleTarget } from "./model/jobs.js";
import type { WorkerPool } from "./shared/worker-pool.js";
import { PACKAGE_ROOT } from "./paths.js";
import { runtimeModules } from "./kinds/index.js";
import { header } from "./emit/header.js";
import { bundledPackages, installedPackages } from "./bundle-packages.js";

// Named like the checked-in folder so comments in the bundle point at the real emitted sources.
const VIRTUAL_ROOT = join(PACKAGE_ROOT, "out");

/**
 * Serves emitted files from memory under a fixed virtual folder. A file still being emitted
 * (LaterFile) is served when it is done: the bundle starts before the long parts of the emit end.
 */
function emittedFiles(files: Array<EmittedFile | LaterFile>): Plugin {
  const byPath = new Map<string, string | Promise<string>>(files.map((f) => [join(VIRTUAL_ROOT, f.path), f.contents]));
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
      b.onLoad({ filter: /.*/ }, async (args) => {
        const pending = byPath.get(args.path);
        if (pending === undefined) return undefined;
        let contents: string;
        try {
          contents = await pending;
        } catch {
          // The emit failed; the pipeline reports its error, not this one.
          return { errors: [{ text: `the emit of ${args.path} failed` }] };
        }
        // Packages resolve from Kervan's own root: the virtual folder may not exist on disk yet.
        return { contents, loader: args.path.endsWith(".ts") ? "ts" : "js", resolveDir: PACKAGE_ROOT };
      });
    },
  };
}

/** `@kervan/runtime` and each kind's runtime module (`@kervan/kinds/<key>`), resolved to their files. */
function runtimeAliases(): Record<string, string> {
  return Object.fromEntries(Object.entries(runtimeModules()).map(([specifier, file]) => [specifier, join(PACKAGE_ROOT, file)]));
}
/**
 * The Redis client and the OpenTelemetry SDK are CommonJS and require Node built-ins; an ESM bundle has
 * no `require`, so a server that bundles either gets one (only those servers: the others' bytes stay as
 * they were).
 */
const CJS_REQUIRE = '\nimport { createRequire as __kervanCreateRequire } from "node:module";\nconst require = __kervanCreateRequire(import.meta.url);';

export type { BundleTarget };

export const bundleTarget = (plan: ServerPlan): BundleTarget => ({
  dir: plan.dir,
  server: plan.server.name,
  specFile: plan.server.origin.file,
  require: plan.server.tasks?.store === "redis" || plan.server.telemetry === "otlp",
});

/**
 * Bundles a server: a large one on a worker of the build's pool, where esbuild's requests for the
 * emitted files are answered at once (on this thread they wait while it emits the types and works
 * out the manifest); a small one here. The same esbuild call on the same files: the same bytes.
 */
export function bundleServer(plan: ServerPlan, files: Array<EmittedFile | LaterFile>, pool?: WorkerPool): Promise<BundleResult> {
  if (!pool?.offThread(plan.tools.length)) return bundleFiles(bundleTarget(plan), files);
  const job = pool.run("bundle", { target: bundleTarget(plan), files: files.map((f) => (typeof f.contents === "string" ? { path: f.path, contents: f.contents } : { path: f.path })) });
  for (const f of files) {
    if (typeof f.contents !== "string") f.contents.then((contents) => job.feed({ file: { path: f.path, contents } }), () => job.feed({ failed: f.path }));
  }
  return job.result;
}

export async function bundleFiles(target: BundleTarget, files: Array<EmittedFile | LaterFile>): Promise<BundleResult> {
  const entry = join(VIRTUAL_ROOT, target.dir, "src/server.ts");
  const alias = runtimeAliases();
  const packages = installedPackages(Object.values(alias));
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: PACKAGE_ROOT,
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: join(VIRTUAL_ROOT, target.dir, "server.mjs"),
    alias,
    external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
    plugins: [emittedFiles(files), packages.plugin],
    banner: { js: `${header(target.specFile)}\n` + (target.require ? CJS_REQUIRE : "") },
    legalComments: "inline",
    metafile: true,
    logLevel: "silent",
    charset: "utf8",
    // Fixed compiler options: no tsconfig.json is looked up, neither Kervan's (not shipped in the
    // package) nor the project's, so the bundle is the same wherever Kervan is installed.
    tsconfigRaw: {},
  });
  // Installed packages are the inputs under node_modules/ (Kervan's own files and the emitted sources are not).
  const inputs = Object.keys(result.metafile.inputs).filter((i) => i.startsWith("node_modules/")).map((i) => packages.realPath(join(PACKAGE_ROOT, i)));
  return { server: target.server, path: `${target.dir}/server.mjs`, contents: result.outputFiles[0].text, packages: bundledPackages(inputs) };
}
