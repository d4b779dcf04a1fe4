// write: put emitted files under the output root, only touching what changed, and removing
// files a server no longer has. In check mode nothing is written: differences are reported.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { EmittedFile, WriteReport } from "./model/output.js";
import { generatedServers } from "./manifest.js";
import { byCodeUnit } from "./shared/order.js";
import type { Staging } from "./write-staging.js";

function filesUnder(root: string, dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(root, path, out);
    else out.push(relative(root, path).split("\\").join("/"));
  }
}

/** Removes the folders under `dir` (and `dir` itself) that hold nothing once stale files are gone. */
function removeEmptyFolders(dir: string): boolean {
  if (!existsSync(dir)) return false;
  let empty = true;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !removeEmptyFolders(join(dir, entry.name))) empty = false;
  }
  if (empty) rmdirSync(dir);
  return empty;
}

export interface WriteOptions {
  check: boolean;
  /** Remove generated server folders whose spec is gone (only when every spec was given). */
  pruneServers: boolean;
  /** Files written ahead into a staging folder (write-staging.ts): moved into place, not written again. */
  staging?: Staging;
}

export function write(root: string, files: EmittedFile[], servers: string[], options: WriteOptions): WriteReport {
  const report: WriteReport = { written: [], unchanged: [], deleted: [], differing: [] };
  const wanted = new Set(files.map((f) => f.path));
  // Folders known to exist, and folders this run created (nothing to compare inside those).
  const present = new Set<string>();
  const created = new Set<string>();
  for (const file of [...files].sort((a, b) => byCodeUnit(a.path, b.path))) {
    const target = join(root, file.path);
    const folder = dirname(target);
    const known = options.check ? undefined : options.staging?.known(file.path);
    if (known === "unchanged") {
      report.unchanged.push(file.path);
      continue;
    }
    const staged = known?.staged;
    let current: string | undefined;
    if (staged === undefined && !created.has(folder)) {
      try {
        current = readFileSync(target, "utf8");
      } catch {
        current = undefined;
      }
    }
    if (current === file.contents) {
      report.unchanged.push(file.path);
      continue;
    }
    if (options.check) {
      report.differing.push(file.path + (current === undefined ? " (missing)" : ""));
      continue;
    }
    if (!present.has(folder)) {
      if (!existsSync(folder)) {
        mkdirSync(folder, { recursive: true });
        created.add(folder);
      }
      present.add(folder);
    }
    // A staged file differed from the output when it was staged.
    if (staged !== undefined) renameSync(staged, target);
    else writeFileSync(target, file.contents);
    report.written.push(file.path);
  }
  const dirs = new Set(servers);
  if (options.pruneServers) for (const d of generatedServers(root)) dirs.add(d);
  for (const dir of [...dirs].sort(byCodeUnit)) {
    const existing: string[] = [];
    filesUnder(root, join(root, dir), existing);
    for (const path of existing.sort(byCodeUnit)) {
      if (wanted.has(path)) continue;
      if (options.check) report.differing.push(`${path} (stale)`);
      else {
        rmSync(join(root, path));
        report.deleted.push(path);
      }
    }
    if (!options.check) removeEmptyFolders(join(root, dir));
  }
  report.differing.sort(byCodeUnit);
  return report;
}
