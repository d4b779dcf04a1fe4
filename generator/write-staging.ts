// Staging: a server's sources are written while its bundle is still being made (the thread waits
// on esbuild then), into a folder of their own inside the output root. The write stage then moves
// each staged file into place with one rename, so the output folder is touched only when the
// whole build has succeeded, as before: a build that fails removes the staging folder and leaves
// the output as it was. Staging is an optimization only: should it fail, the write stage writes
// those files itself.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EmittedFile } from "./model/output.js";
import { turns } from "./shared/turns.js";

/** Names of staging folders inside an output root. */
export const STAGING_PREFIX = ".kervan-staging-";

/** A staging folder this old is a leftover of a killed run, removed by the next run that stages. */
const LEFTOVER_MS = 3_600_000;

export class Staging {
  private dir: string | undefined;
  private failed = false;
  private closed = false;
  /** Output path -> staged file, for files whose bytes differ from what the output holds. */
  private readonly files = new Map<string, string>();
  /** Output paths that already held the same bytes. */
  private readonly same = new Set<string>();
  private readonly folders = new Set<string>();

  constructor(private readonly root: string) {}

  /**
   * Writes the files that differ from the output into the staging folder, a few at a time, letting
   * I/O in between (esbuild's requests are served on this thread).
   */
  async stage(files: EmittedFile[]): Promise<void> {
    const turn = turns();
    try {
      for (const file of files) {
        await turn();
        if (this.failed || this.closed) return;
        if (unchanged(join(this.root, file.path), file.contents)) {
          this.same.add(file.path);
          continue;
        }
        const staged = join(this.folder(), file.path);
        if (!this.folders.has(dirname(staged))) {
          mkdirSync(dirname(staged), { recursive: true });
          this.folders.add(dirname(staged));
        }
        writeFileSync(staged, file.contents);
        this.files.set(file.path, staged);
      }
    } catch {
      // The write stage writes whatever is not staged, and reports a real problem itself.
      this.failed = true;
    }
  }

  /** What staging found for an output path: a staged file to move into place, the same bytes already there, or nothing known. */
  known(path: string): { staged: string } | "unchanged" | undefined {
    if (this.failed || this.closed) return undefined;
    const staged = this.files.get(path);
    return staged !== undefined ? { staged } : this.same.has(path) ? "unchanged" : undefined;
  }

  /** Removes the staging folder (what was moved into place is gone from it already); nothing is staged after. */
  discard(): void {
    this.closed = true;
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }

  private folder(): string {
    if (!this.dir) {
      mkdirSync(this.root, { recursive: true });
      removeLeftovers(this.root);
      this.dir = mkdtempSync(join(this.root, STAGING_PREFIX));
    }
    return this.dir;
  }
}

function unchanged(target: string, contents: string): boolean {
  if (!existsSync(dirname(target))) return false;
  try {
    return readFileSync(target, "utf8") === contents;
  } catch {
    return false;
  }
}

function removeLeftovers(root: string): void {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(STAGING_PREFIX)) continue;
    const path = join(root, entry.name);
    if (Date.now() - statSync(path).mtimeMs > LEFTOVER_MS) rmSync(path, { recursive: true, force: true });
  }
}
