// Finds spec files: a file, or every .yaml/.yml/.json spec directly in a folder (sorted).
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { SourceFile } from "../model/spec.js";
import { byCodeUnit } from "../shared/order.js";
import { errorCode, messageOf } from "../shared/object.js";
import { READ_LIMITS, ReadRefused, readRegularFile } from "../shared/read-bounded.js";

export class UsageError extends Error {}

const SPEC = /\.(ya?ml|json)$/;

export function readSources(paths: string[]): SourceFile[] {
  const files: string[] = [];
  for (const p of paths) {
    let stat;
    try {
      stat = statSync(p);
    } catch {
      throw new UsageError(`no such spec file or folder: ${p}`);
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(p).filter((n) => SPEC.test(n)).sort(byCodeUnit)) files.push(join(p, name));
    } else files.push(p);
  }
  if (!files.length) throw new UsageError(`no spec files found in ${paths.join(", ")}`);
  return [...new Set(files)]
    .map((f) => ({ path: relative(process.cwd(), f).split("\\").join("/") || f, text: readSpec(f) }))
    .sort((a, b) => byCodeUnit(a.path, b.path));
}

/** A spec file: a regular file within the size limit (a device such as /dev/zero would read forever). */
function readSpec(file: string): string {
  try {
    return readRegularFile(file, READ_LIMITS.specBytes);
  } catch (e) {
    if (e instanceof ReadRefused) throw new UsageError(`spec file ${file} ${e.message}`);
    throw new UsageError(`cannot read spec file ${file}: ${errorCode(e) ?? messageOf(e)}`);
  }
}
