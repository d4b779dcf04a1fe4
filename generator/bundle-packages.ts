// Installed packages as esbuild sees them: always under `<Kervan's root>/node_modules/...`, wherever
// npm put them. Inside this repository that is where they are; in a project that installed Kervan,
// npm hoists them to the project's node_modules, and esbuild would name them `../ajv/...` in path
// comments and CommonJS wrapper keys, so the same spec would give other bytes. The plugin resolves
// each import the normal way, then hands esbuild the canonical path and serves the real file's
// contents under it; `realPath` maps back for the package facts.
import type { Plugin } from "esbuild";
import { readFileSync } from "node:fs";
import type { BundledPackage } from "./model/output.js";
import { dirname, join, sep } from "node:path";
import { PACKAGE_ROOT } from "./paths.js";

const CANONICAL_MODULES = join(PACKAGE_ROOT, "node_modules");
const SKIP = Symbol("kervan-packages");
/**
 * Every import path but `@kervan/...`: when the bundle's aliases resolve those to Kervan's own files
 * (no installed package among them), they are left to esbuild and cost no round trip to this
 * process, where a server of a thousand tools imports its kind's module a thousand times.
 * (esbuild's filters are Go regular expressions: no lookahead, hence spelt out.)
 */
const NOT_KERVAN = /^(?:[^@]|@(?:[^k]|k(?:[^e]|e(?:[^r]|r(?:[^v]|v(?:[^a]|a(?:[^n]|n[^/])))))))|^@?$|^@k$|^@ke$|^@ker$|^@kerv$|^@kerva$|^@kervan$/;

/** `<root>/node_modules/<path inside the node_modules folder that holds it>`, for a file of an installed package. */
function canonical(real: string): string | undefined {
  if (real.startsWith(PACKAGE_ROOT + sep) && !real.startsWith(CANONICAL_MODULES + sep)) return undefined; // Kervan's own files
  for (let dir = PACKAGE_ROOT; ; dir = dirname(dir)) {
    const modules = join(dir, "node_modules") + sep;
    if (real.startsWith(modules)) return join(CANONICAL_MODULES, real.slice(modules.length));
    if (dirname(dir) === dir) return undefined;
  }
}

/** `aliasTargets`: the files the bundle's `@kervan/...` aliases name. */
export function installedPackages(aliasTargets: string[]): { plugin: Plugin; realPath: (path: string) => string } {
  const filter = aliasTargets.every((file) => canonical(file) === undefined) ? NOT_KERVAN : /.*/;
  const real = new Map<string, string>();
  const plugin: Plugin = {
    name: "kervan-packages",
    setup(b) {
      b.onResolve({ filter }, async (args) => {
        if (args.pluginData === SKIP || args.kind === "entry-point") return undefined;
        const importer = real.get(args.importer);
        // Bare imports from anywhere, and every import from inside a package.
        if (!importer && /^(\.\.?\/|\/)/.test(args.path)) return undefined;
        const resolveDir = importer ? dirname(importer) : args.resolveDir;
        const r = await b.resolve(args.path, { kind: args.kind, resolveDir, importer: importer ?? args.importer, pluginData: SKIP });
        // Unresolved (esbuild then decides, e.g. an optional require inside try/catch), external or virtual: not ours.
        if (r.errors.length || r.external || r.namespace !== "file") return undefined;
        const path = canonical(r.path);
        if (!path) return { path: r.path, sideEffects: r.sideEffects };
        real.set(path, r.path);
        return { path, sideEffects: r.sideEffects };
      });
      b.onLoad({ filter: /.*/ }, (args) => {
        const file = real.get(args.path);
        if (!file) return undefined;
        return { contents: readFileSync(file), resolveDir: dirname(file), loader: file.endsWith(".json") ? "json" : "js" };
      });
    },
  };
  return { plugin, realPath: (path) => real.get(path) ?? path };
}

// The facts: every bundled file under node_modules names its package, whose own package.json
// (found from the real file, wherever npm installed it) gives the version and license.
const IN_NODE_MODULES = /^(.*[\\/]node_modules)[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](.*)$/;

/** For a file inside an installed package: the package's folder, its name and the path inside it. */
export function packageOfFile(absPath: string): { dir: string; name: string; rest: string } | undefined {
  const m = IN_NODE_MODULES.exec(absPath);
  if (!m) return undefined;
  const name = m[2].split("\\").join("/");
  return { dir: join(m[1], name), name, rest: m[3].split("\\").join("/") };
}

function licenseOf(pkg: Record<string, unknown>): string {
  // Old package.json files spell it as an object or a list of objects.
  const l: unknown = pkg.license ?? pkg.licenses;
  if (typeof l === "string") return l;
  if (Array.isArray(l)) return l.map((x: unknown) => (x && typeof x === "object" && "type" in x && x.type != null ? x.type : String(x))).join(" OR ");
  if (l && typeof l === "object" && "type" in l && typeof l.type === "string") return l.type;
  return "UNKNOWN";
}

/** name -> {version, license} for every package among the bundle's inputs (absolute paths), sorted. */
export function bundledPackages(inputs: string[]): Record<string, BundledPackage> {
  const found = new Map<string, BundledPackage>();
  for (const input of inputs) {
    const p = packageOfFile(input);
    if (!p || found.has(p.name)) continue;
    try {
      const pkg = JSON.parse(readFileSync(join(p.dir, "package.json"), "utf8"));
      found.set(p.name, { version: String(pkg.version ?? "unknown"), license: licenseOf(pkg) });
    } catch {
      // a package we cannot read is listed as such, not skipped
      found.set(p.name, { version: "unknown", license: "UNKNOWN" });
    }
  }
  return Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
