// The run-later paths a writable root keeps read-only: a list of its own, with no imports, so the
// generator's schema reads it without loading the sandbox.

/**
 * Paths inside a writable root that something runs later, outside the sandbox, without them
 * showing in a diff of the project: git's hooks and the files that configure it (config, with
 * core.hooksPath, core.fsmonitor, filter drivers and aliases; commondir, which moves config and
 * hooks elsewhere; those of submodules and worktrees), direnv's `.envrc` and `.direnv`, husky's
 * hook runner, editor tasks and settings, and the commands npm and a Python virtualenv put on
 * PATH. The rest of `.git` (index, objects, refs) stays writable, so git can commit and restore.
 * Each stays read-only in every writable root (and in the tool's working directory when a
 * writable root holds it) unless the spec names it in `writableRunLater`; a `.git` that is a file
 * (a linked worktree's) is read-only with them.
 */
export const RUN_LATER = [
  ".direnv",
  ".envrc",
  ".git/commondir",
  ".git/config",
  ".git/config.worktree",
  ".git/hooks",
  ".git/info",
  ".git/modules",
  ".git/worktrees",
  ".husky",
  ".idea",
  ".venv/bin",
  ".vscode",
  "node_modules/.bin",
];
