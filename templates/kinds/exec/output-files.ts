// Files an exec tool declares it writes (`outputFiles`): each call gets a fresh output directory
// ($KERVAN_OUTPUT_DIR, writable inside the sandbox, removed after the call); after a successful run
// each declared file is read and returned as an embedded resource. The command may have planted
// anything there, so a file is opened without following a final symbolic link, must be a regular
// file, and (on Linux) the descriptor's own path (/proc/self/fd) must be the declared one: a
// symbolic link anywhere on the way, or a name that climbs out, is refused, never followed.
import { closeSync, constants, fstatSync, mkdtempSync, openSync, readlinkSync, readSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContentBlock } from "../../runtime/types.js";

export interface OutputFile {
  /** Relative to the call's output directory: plain names joined by `/`, no `.` or `..`. */
  path: string;
  mimeType: string;
  /** A missing file: a tool error (default), or left out of the result. */
  missing?: "error" | "omit";
  /** Largest size of this file (default: the tool's maxOutputBytes). */
  maxBytes?: number;
}

/** The environment variable naming the call's output directory. */
export const OUTPUT_DIR_ENV = "KERVAN_OUTPUT_DIR";
/** Default cap on all of a call's output files together. */
export const OUTPUT_FILES_TOTAL_DEFAULT = 8 * 1024 * 1024;

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** Why a declared path is not a plain relative path inside the output directory, or undefined. */
export function outputPathProblem(path: string): string | undefined {
  if (path.startsWith("/")) return "is absolute";
  const parts = path.split("/");
  if (parts.some((p) => p === "..")) return "climbs out of the output directory (..)";
  if (parts.length > 8 || path.length > 512) return "is too deep or too long (at most 8 parts, 512 characters)";
  const bad = parts.find((p) => !SEGMENT.test(p));
  if (bad !== undefined) return `has the part ${JSON.stringify(bad)}, which is not a plain name (letters, digits, ., _, -; not starting with .)`;
  return undefined;
}

/** Media types returned as text (UTF-8) rather than a base64 blob. */
export function isTextType(mimeType: string): boolean {
  return /^text\//.test(mimeType) || /^application\/(json|xml|yaml|x-yaml|javascript|x-ndjson|csv)$/.test(mimeType) || /\+(json|xml|yaml)$/.test(mimeType);
}

/** The resource's URI: the same for every call of the tool, so a client can tell files apart. */
export function outputUri(tool: string, path: string): string {
  return `kervan-output:///${encodeURIComponent(tool)}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** A fresh output directory for one call (a real path, so it is the same inside the sandbox). */
export function makeOutputDir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "kervan-output-")));
}

export function removeOutputDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export type Collected = { blocks: ContentBlock[]; notes: string[] } | { error: string };

class Refused extends Error {}

/** Reads the declared files of a finished call; any refusal makes the whole call a tool error. */
export function collectOutputs(tool: string, dir: string, files: OutputFile[], perFile: number, total: number): Collected {
  const blocks: ContentBlock[] = [];
  const notes: string[] = [];
  let used = 0;
  try {
    for (const f of files) {
      const cap = f.maxBytes ?? perFile;
      const bytes = readDeclared(dir, f.path, cap);
      if (bytes === undefined) {
        if (f.missing === "omit") {
          notes.push(`${f.path}: not written (left out)`);
          continue;
        }
        throw new Refused(`the command did not write the declared output file ${f.path}`);
      }
      used += bytes.length;
      if (used > total) throw new Refused(`the output files come to more than ${total} bytes together (outputFilesMaxBytes); nothing is returned`);
      blocks.push({ type: "resource", resource: resourceOf(tool, f, bytes) });
      notes.push(`${f.path}: ${bytes.length} bytes of ${f.mimeType}, returned as an embedded resource`);
    }
  } catch (err) {
    if (err instanceof Refused) return { error: err.message };
    throw err;
  }
  return { blocks, notes };
}

function resourceOf(tool: string, f: OutputFile, bytes: Buffer): Record<string, string> {
  const uri = outputUri(tool, f.path);
  if (isTextType(f.mimeType)) {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    try {
      return { uri, mimeType: f.mimeType, text: text.decode(bytes) };
    } catch {
      // Not UTF-8: the bytes travel unchanged, as a blob.
    }
  }
  return { uri, mimeType: f.mimeType, blob: bytes.toString("base64") };
}

/** The file's bytes, undefined when it does not exist; Refused for anything but a regular file inside `dir`. */
function readDeclared(dir: string, path: string, cap: number): Buffer | undefined {
  const full = join(dir, path);
  let fd: number;
  try {
    fd = openSync(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP") throw new Refused(`the output file ${path} is a symbolic link; it is not followed, so nothing is returned`);
    if (code === "ENOTDIR") throw new Refused(`a folder of the output file ${path} is not a directory (a symbolic link?); nothing is returned`);
    throw new Refused(`cannot open the output file ${path}: ${code ?? String(err)}`);
  }
  try {
    const opened = openedPath(fd) ?? realpathSync(full);
    if (opened !== undefined && opened !== full) throw new Refused(`the output file ${path} leads to ${opened}, outside the call's output directory (a symbolic link on the way); nothing is returned`);
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Refused(`the output file ${path} is not a regular file`);
    if (st.size > cap) throw new Refused(`the output file ${path} is ${st.size} bytes, more than its cap of ${cap}; nothing is returned`);
    const buf = Buffer.alloc(cap + 1);
    let n = 0;
    for (let r = 1; r > 0 && n <= cap; n += r) r = readSync(fd, buf, n, cap + 1 - n, null);
    if (n > cap) throw new Refused(`the output file ${path} grew past its cap of ${cap} bytes; nothing is returned`);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Where an open descriptor really is (Linux); undefined where the system does not say (then the path is resolved again). */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}
