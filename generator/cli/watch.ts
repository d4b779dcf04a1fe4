// `kervan gen --watch`: one build, then a rebuild after every change of a spec file (or a new spec
// in a watched folder) or of a schema file a spec includes with `@file`. A build with errors
// prints them and writes nothing, so the last good output stays in place.
import { dirname, relative, resolve } from "node:path";
import { watch as chokidar } from "chokidar";
import { load } from "../load.js";
import type { Diagnostic } from "../model/diagnostic.js";
import { genOnce, sourcesFrom } from "./gen-once.js";
import { UsageError } from "./sources.js";
import type { Parsed } from "./command.js";

const noDiagnostics = (): Diagnostic[] => [];

/** Every schema file the specs include with `@file`, as load() resolved them from each spec's folder. */
function includedFiles(p: Parsed): string[] {
  let sources;
  try {
    sources = sourcesFrom(p, ["specs"]);
  } catch {
    return []; // no spec yet: the folder itself is watched
  }
  const found = new Set<string>();
  for (const spec of load(sources, noDiagnostics())) {
    for (const path of Object.keys(spec.includes)) found.add(resolve(dirname(spec.file), path));
  }
  return [...found];
}

export async function watch(p: Parsed): Promise<number> {
  const roots = (p.positional.length ? p.positional : ["specs"]).map((r) => resolve(r));
  const watcher = chokidar(roots, { ignoreInitial: true });
  let watched = new Set<string>();
  let running = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const build = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const { code } = await genOnce(p);
      if (code !== 0) process.stderr.write("kervan: build failed; the previous output is kept\n");
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      process.stderr.write(`kervan: ${e.message}\n`);
    }
    const files = new Set(includedFiles(p));
    const added = [...files].filter((f) => !watched.has(f));
    const removed = [...watched].filter((f) => !files.has(f) && !roots.includes(f));
    if (added.length) watcher.add(added);
    if (removed.length) watcher.unwatch(removed);
    watched = files;
    process.stderr.write(`kervan: watching ${roots.length + files.size} path${roots.length + files.size === 1 ? "" : "s"} for changes (Ctrl-C stops)\n`);
    running = false;
    if (again) {
      again = false;
      await build();
    }
  };

  const schedule = (path: string) => {
    if (!/\.(ya?ml|json)$/i.test(path)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      process.stderr.write(`kervan: ${relative(process.cwd(), path) || path} changed, rebuilding\n`);
      void build();
    }, 100);
  };
  watcher.on("add", schedule).on("change", schedule).on("unlink", schedule);
  await new Promise<void>((ready) => watcher.on("ready", () => ready()));
  await build();
  return new Promise<number>((done) => {
    for (const sig of ["SIGINT", "SIGTERM"] as const) {
      process.once(sig, () => {
        void watcher.close().then(() => done(0));
      });
    }
  });
}
