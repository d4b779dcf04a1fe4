// Git directories the sandbox does not show. A linked worktree (`git worktree add`) or a submodule
// has a `.git` *file*, "gitdir: <path>", naming its git directory elsewhere, whose `commondir`
// names the main repository's `.git`. Under the sandbox only the visible roots exist, so git there
// fails ("not a git repository") unless those directories are visible too. The spec names them in
// `sandbox.visible` (or `writable`, if git must write); at startup the server says which.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { within } from "./paths.js";
import type { SandboxPlan } from "./sandbox.js";

export interface HiddenGitDir {
  /** The `.git` file, under a visible root. */
  file: string;
  /** The directory to add to sandbox.visible: the main repository's git directory when there is one. */
  needed: string;
}

function readQuiet(p: string): string | undefined {
  try {
    return readFileSync(p, "utf8");
  } catch {
    return undefined;
  }
}

function realQuiet(p: string): string | undefined {
  try {
    return statSync(p).isDirectory() ? realpathSync(p) : undefined;
  } catch {
    return undefined;
  }
}

/** For each visible root holding an unmasked `.git` file: the git directory it needs, when the sandbox hides it. */
export function hiddenGitDirs(plan: Pick<SandboxPlan, "visible" | "masked">): HiddenGitDir[] {
  const out: HiddenGitDir[] = [];
  const shown = (p: string) => plan.visible.some((v) => within(v, p));
  for (const root of plan.visible) {
    const file = join(root, ".git");
    if (plan.masked.some((m) => within(m, file))) continue;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readQuiet(file) ?? "");
    if (!m) continue; // a directory (readFileSync fails), no .git, or not a gitdir file
    const gitdir = realQuiet(resolve(dirname(file), m[1]!));
    if (!gitdir) continue; // git itself fails on a dangling gitdir, sandbox or not
    const common = readQuiet(join(gitdir, "commondir"))?.trim();
    const commonDir = common ? realQuiet(resolve(gitdir, common)) : undefined;
    const dirs = [gitdir, ...(commonDir ? [commonDir] : [])];
    if (dirs.every(shown)) continue;
    out.push({ file, needed: commonDir && within(commonDir, gitdir) ? commonDir : gitdir });
  }
  return out;
}
