// A project that uses Kervan as a dependency: `npm pack` of this repository, then an install of the
// tarball into a fresh folder with its own package.json, tsconfig.json and specs/.
//
// Tests reach no registry, so the install runs `npm ci --offline` from npm's cache (filled by this
// repository's own `npm ci`) with a lockfile derived from Kervan's: the consumer's devDependency on
// the tarball, and Kervan's production packages hoisted into the consumer's node_modules, as
// `npm i -D kervan-<version>.tgz` lays them out.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "../..");

export interface Packed {
  tarball: string;
  files: { path: string; size: number }[];
  size: number;
  unpackedSize: number;
}

/** `npm pack` into a temporary folder; the file list as npm reports it. */
export function pack(): Packed {
  const dest = mkdtempSync(join(tmpdir(), "kervan-pack-"));
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", dest], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const [info] = JSON.parse(out);
  return { tarball: join(dest, info.filename), files: info.files, size: info.size, unpackedSize: info.unpackedSize };
}

type LockEntry = Record<string, unknown> & { dev?: boolean; devOptional?: boolean; resolved?: string; version?: string };

const REGISTRY = "https://registry.npmjs.org/";

/** The consumer's package-lock.json: the tarball plus Kervan's production packages. */
function consumerLock(tarballName: string, integrity: string): unknown {
  const own = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
  const root = own.packages[""];
  const packages: Record<string, LockEntry> = {
    "": { name: "consumer", version: "1.0.0", devDependencies: { kervan: `file:${tarballName}` } },
    "node_modules/kervan": {
      version: root.version,
      resolved: `file:${tarballName}`,
      integrity,
      dev: true,
      license: root.license,
      dependencies: root.dependencies,
      bin: root.bin,
      engines: root.engines,
    },
  };
  for (const [path, entry] of Object.entries(own.packages as Record<string, LockEntry>)) {
    if (path === "" || entry.dev || entry.devOptional) continue;
    // With its tarball's address and integrity, npm takes a package straight from its cache.
    const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    const resolved = entry.resolved ?? `${REGISTRY}${name}/-/${name.split("/").pop()}-${entry.version}.tgz`;
    packages[path] = { ...entry, resolved, dev: true };
  }
  return { name: "consumer", version: "1.0.0", lockfileVersion: 3, requires: true, packages };
}

/** A fresh project folder with Kervan installed from the tarball; `files` are written into it first. */
export function consumerProject(packed: Packed, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "kervan-consumer-"));
  const name = packed.tarball.split(/[\\/]/).pop()!;
  const bytes = readFileSync(packed.tarball);
  writeFileSync(join(dir, name), bytes);
  const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, devDependencies: { kervan: `file:${name}` } }, null, 2) + "\n");
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify(consumerLock(name, integrity), null, 2) + "\n");
  for (const [path, text] of Object.entries(files)) {
    execFileSync("mkdir", ["-p", join(dir, path, "..")]);
    writeFileSync(join(dir, path), text);
  }
  execFileSync("npm", ["ci", "--offline", "--no-audit", "--no-fund"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  return dir;
}
