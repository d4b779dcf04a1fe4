// Finds spec files: a file, or every .yaml/.yml/.json spec directly in a folder (sorted).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { SourceFile } from "../model/spec.js";
import { byCodeUnit } from "../shared/order.js";

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
    .map((f) => ({ path: relative(process.cwd(), f).split("\\").join("/") || f, text: readFileSync(f, "utf8") }))
    .sort((a, b) => byCodeUnit(a.path, b.path));
}
