// dist/ holds the generator prebuilt to plain JavaScript (bin/prebuild.mjs), so that a command does
// not transpile TypeScript at every start. It is a cache, trusted only while it matches: its stamp,
// dist/inputs.json, records a sha256 of every source file bundled into it and of dist's own files;
// when one of them is missing or has other bytes (an edit, a git pull, a half-written build),
// prebuiltEntry answers undefined, so bin/kervan.mjs runs the TypeScript sources instead.
// Content hashes, not modification times: an installed package has the times of its extraction.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const DIST = "dist";
export const STAMP = `${DIST}/inputs.json`;

export const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/**
 * @typedef {{ entry: string, esbuild: string, inputs: Record<string, string>, outputs: Record<string, string> }} Stamp
 * Paths are relative to the package root, with forward slashes.
 */

/** The stamp under `root`, or undefined when there is none or it cannot be read. */
export function readStamp(root) {
  try {
    const stamp = JSON.parse(readFileSync(join(root, STAMP), "utf8"));
    return stamp && typeof stamp.entry === "string" && stamp.inputs && stamp.outputs ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/** Whether every file the stamp lists still has the bytes it had when dist/ was built. */
export function stampHolds(root, stamp) {
  for (const files of [stamp.inputs, stamp.outputs]) {
    for (const [file, hash] of Object.entries(files)) {
      let bytes;
      try {
        bytes = readFileSync(join(root, file));
      } catch {
        return false;
      }
      if (sha256(bytes) !== hash) return false;
    }
  }
  return true;
}

/** The file URL of the prebuilt CLI under `root` when it matches the sources there; else undefined. */
export function prebuiltEntry(root) {
  const stamp = readStamp(root);
  return stamp && stampHolds(root, stamp) ? pathToFileURL(join(root, stamp.entry)).href : undefined;
}
