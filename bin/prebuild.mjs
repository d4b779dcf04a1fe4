#!/usr/bin/env node
// Builds dist/: the generator's CLI and its worker threads bundled by esbuild into plain JavaScript,
// which bin/kervan.mjs runs instead of transpiling the TypeScript sources at every start (see
// bin/prebuilt.mjs for when it may). `npm run prepare` runs it (npm ci and npm pack do too).
//
// - splitting: each command's modules stay in chunks of their own, loaded only when the command runs
//   (generator/cli/command-loaders.ts); packages stay external, resolved from node_modules at run time;
// - keepNames: a function or class keeps its name, as it has from the sources;
// - dist/ is one folder under the package root, as generator/ is, so generator/paths.ts's
//   PACKAGE_ROOT (two dirname()s above a module's own URL) names the same folder either way;
// - a worker module (`new URL("./x-thread.ts", import.meta.url)` in generator/) is an entry of its own,
//   dist/x-thread.mjs, next to the chunks, where generator/shared/ts-worker.ts looks for it.
//
// The same sources give the same bytes; files already there with those bytes are not rewritten, so
// a build of an unchanged tree changes nothing under a command that is running from dist/.
import { build, version as esbuildVersion } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DIST, readStamp, sha256, stampHolds, STAMP } from "./prebuilt.mjs";
import { specValidatorCode } from "./spec-validator.mjs";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const SELF = relative(ROOT, fileURLToPath(import.meta.url)).split("\\").join("/");
const CLI = "generator/cli.ts";
const SPEC_SCHEMA = "kervan.schema.json";
const SPEC_VALIDATOR_MODULE = "bin/spec-validator.mjs";

const posix = (path) => path.split("\\").join("/");

function filesUnder(dir, out = []) {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) filesUnder(path, out);
    else out.push(path);
  }
  return out;
}

/** Every file a build can read, hashed before it starts: a file edited during the build leaves a stamp that fails. */
function hashSources() {
  const files = [...filesUnder("generator"), ...filesUnder("templates"), ...readdirSync(ROOT).filter((f) => f.endsWith(".json")), SELF, SPEC_VALIDATOR_MODULE];
  return new Map(files.map((f) => [f, sha256(readFileSync(join(ROOT, f)))]));
}

/** The modules generator/ starts worker threads on: `new URL("./name.ts", import.meta.url)`. */
function workerModules() {
  const found = new Set();
  for (const file of filesUnder("generator").filter((f) => f.endsWith(".ts"))) {
    const code = readFileSync(join(ROOT, file), "utf8").split("\n").filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line));
    for (const m of code.join("\n").matchAll(/new URL\(\s*"(\.\.?\/[^"]+\.ts)"\s*,\s*import\.meta\.url\s*\)/g)) {
      found.add(posix(relative(ROOT, join(ROOT, dirname(file), m[1]))));
    }
  }
  return [...found].sort();
}

async function bundle() {
  const workers = workerModules();
  const entries = [CLI, ...workers];
  const names = entries.map((e) => basename(e, ".ts"));
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`two entry modules are named ${twice}.ts: dist/ keeps them side by side, so each needs a name of its own`);
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    outdir: DIST,
    entryNames: "[name]",
    chunkNames: "chunk-[hash]",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    keepNames: true,
    legalComments: "none",
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const inputs = Object.keys(result.metafile.inputs).map(posix);
  const outside = inputs.filter((i) => !i.startsWith("generator/") && !i.startsWith("templates/") && !/^[^/]+\.json$/.test(i));
  if (outside.length) throw new Error(`the generator bundles files from outside generator/ and templates/: ${outside.join(", ")}`);
  const files = result.outputFiles.map((f) => ({ path: posix(relative(ROOT, f.path)), bytes: f.contents }));
  // kervan.schema.json's validator, compiled ahead (bin/spec-validator.mjs).
  const validator = specValidatorCode(JSON.parse(readFileSync(join(ROOT, SPEC_SCHEMA), "utf8")));
  files.push({ path: `${DIST}/spec-validator.cjs`, bytes: Buffer.from(validator) });
  return { entry: `${DIST}/cli.mjs`, inputs: [...new Set([...inputs, SELF, SPEC_SCHEMA, SPEC_VALIDATOR_MODULE])].sort(), files };
}

/** Writes `bytes` to `file` unless it holds them already; through a temporary name, so no reader sees half a file. */
function put(file, bytes) {
  const path = join(ROOT, file);
  try {
    if (sha256(readFileSync(path)) === sha256(bytes)) return false;
  } catch {}
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.${process.pid}.tmp`, bytes);
  renameSync(`${path}.${process.pid}.tmp`, path);
  return true;
}

/** Whether `name` is a file another build that is still running is writing. */
function inFlight(name) {
  const pid = Number(/\.(\d+)\.tmp$/.exec(name)?.[1]);
  if (!pid || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const old = readStamp(ROOT);
if (old && old.esbuild === esbuildVersion && stampHolds(ROOT, old)) {
  process.stderr.write(`${DIST}/ is up to date\n`);
} else {
  const before = hashSources();
  const { entry, inputs, files } = await bundle();
  // Without a stamp dist/ is not used, so a build stopped half-way is never run.
  rmSync(join(ROOT, STAMP), { force: true });
  const written = files.filter((f) => put(f.path, f.bytes)).length;
  const keep = new Set(files.map((f) => f.path));
  for (const name of readdirSync(join(ROOT, DIST))) if (!keep.has(`${DIST}/${name}`) && !inFlight(name)) rmSync(join(ROOT, DIST, name), { recursive: true, force: true });
  const stamp = {
    entry,
    esbuild: esbuildVersion,
    inputs: Object.fromEntries(inputs.map((i) => [i, before.get(i) ?? ""])),
    outputs: Object.fromEntries(files.map((f) => [f.path, sha256(f.bytes)])),
  };
  put(STAMP, `${JSON.stringify(stamp, null, 2)}\n`);
  process.stderr.write(`${DIST}/ built: ${files.length} files (${written} changed) from ${inputs.length} sources\n`);
}
