// What an exec tool's argv visibly changes, if anything: its effects' `changes`, which the lint
// holds against readOnlyHint (KV607). Cheap and heuristic: the command, its first word, a few flags,
// and the simple commands of a shell script.
import { baseName, shellUse } from "../../shared/shells.js";

// Commands that change files or processes whatever their arguments, and subcommands that do.
const MUTATING = new Set(["rm", "rmdir", "mv", "cp", "dd", "shred", "truncate", "chmod", "chown", "chgrp", "ln", "mkdir", "touch", "kill", "pkill", "killall", "unlink", "install", "tee", "mkfs"]);
// PowerShell cmdlets and cmd.exe builtins that do the same (both read case-insensitively).
const MUTATING_CI = new Set(["remove-item", "set-content", "add-content", "clear-content", "out-file", "new-item", "move-item", "copy-item", "rename-item", "stop-process", "del", "erase", "rd", "move", "copy", "ren"]);
const MUTATING_SUB: Record<string, string[]> = {
  git: ["add", "am", "apply", "checkout", "cherry-pick", "clean", "clone", "commit", "fetch", "gc", "init", "merge", "mv", "pull", "push", "rebase", "reset", "restore", "revert", "rm", "switch", "tag"],
  npm: ["ci", "i", "install", "link", "publish", "uninstall", "unpublish", "update"],
  pnpm: ["add", "i", "install", "publish", "remove", "update"],
  yarn: ["add", "install", "publish", "remove", "upgrade"],
  docker: ["build", "kill", "prune", "push", "rm", "rmi", "run", "stop"],
  kubectl: ["apply", "create", "delete", "drain", "edit", "patch", "replace", "scale"],
};

// Calls in an inline interpreter script that write files or run other commands.
const SCRIPT_WRITES = /\b(os\.(remove|unlink|rmdir|removedirs|rename|replace|makedirs|mkdir|system|chmod)|shutil\.|subprocess\.|open\([^)]*["'][wax+]|\.write_(text|bytes)\(|(writeFile|appendFile|unlink|rm|rmdir|mkdir|rename|copyFile)(Sync)?\(|child_process|File\.(write|delete|open)|FileUtils\.|\bunlink\b|\bsystem\s*\(|`[^`]+`)/;

/**
 * What an argv visibly changes, as a phrase after "the tool", or undefined. With `outputDir` (the
 * tool declares outputFiles), a redirection into "$KERVAN_OUTPUT_DIR/..." writes only the call's
 * own scratch directory, which is removed after the call: no change.
 */
export function mutation(argv: string[], outputDir = false): string | undefined {
  const command = baseName(argv[0] ?? "");
  const shell = shellUse(argv);
  if (shell?.script !== undefined) {
    if (shell.shell) return scriptMutation(outputDir ? intoOutputDirSpared(shell.script) : shell.script);
    return SCRIPT_WRITES.test(shell.script) ? `runs ${command} with a script that writes files or runs commands` : undefined;
  }
  if (MUTATING.has(command) || MUTATING_CI.has(command.toLowerCase())) return `runs ${command}`;
  const sub = argv.slice(1).find((a) => !a.startsWith("-"));
  if (sub && MUTATING_SUB[command]?.includes(sub)) return `runs ${command} ${sub}`;
  if (command === "find" && argv.some((a) => a === "-delete" || a === "-exec")) return "runs find with -delete/-exec";
  if ((command === "sed" || command === "perl") && argv.some((a) => /^-[a-zA-Z]*i/.test(a) || a === "--in-place")) return `edits files in place (${command} -i)`;
  return undefined;
}

const INTO_OUTPUT_DIR = /(>>?\|?\s*)("\$\{?KERVAN_OUTPUT_DIR\}?\/[^"$`]*"|\$\{?KERVAN_OUTPUT_DIR\}?\/[^\s;&|()<>"'$`]*)/g;

/** The script with each redirection into the output directory (never climbing out with `..`) aimed at /dev/null. */
const intoOutputDirSpared = (script: string) => script.replace(INTO_OUTPUT_DIR, (m, pre: string, target: string) => (target.includes("..") ? m : `${pre}/dev/null`));

/**
 * A shell script's visible changes: a redirection into a file, or a mutating simple command.
 * Quoted text is blanked first so `echo "a > b"` is no redirection; a lint, so a heuristic.
 */
function scriptMutation(script: string): string | undefined {
  const bare = script.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, (q) => (q[0] === "'" ? "''" : '""'));
  for (const m of bare.matchAll(/>>?\|?\s*(&\d*-?|[^\s;&|()<>]+)/g)) {
    if (m[1] !== "/dev/null" && !m[1]!.startsWith("&")) return "writes a file through a shell redirection";
  }
  for (const simple of bare.split(/&&|\|\||[;|&\n(){}`]|\$\(/)) {
    const words = simple.trim().split(/\s+/).filter((w) => w !== "" && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    const found = words.length ? mutation(words[0] === "sudo" || words[0] === "exec" ? words.slice(1) : words) : undefined;
    if (found) return `${found} (in its shell script)`;
  }
  return undefined;
}
