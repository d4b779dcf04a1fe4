// KV606: the spec states the tool's annotations (the kind's defaults are guesses a reviewer
// should confirm). KV607: the annotations do not contradict what the kind visibly does.
import type { ToolRule, LintTool } from "../types.js";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

// Commands that change files or processes whatever their arguments, and subcommands that do.
const MUTATING = new Set(["rm", "rmdir", "mv", "cp", "dd", "shred", "truncate", "chmod", "chown", "chgrp", "ln", "mkdir", "touch", "kill", "pkill", "killall", "unlink", "install", "tee", "mkfs"]);
const MUTATING_SUB: Record<string, string[]> = {
  git: ["add", "am", "apply", "checkout", "cherry-pick", "clean", "clone", "commit", "fetch", "gc", "init", "merge", "mv", "pull", "push", "rebase", "reset", "restore", "revert", "rm", "switch", "tag"],
  npm: ["ci", "i", "install", "link", "publish", "uninstall", "unpublish", "update"],
  pnpm: ["add", "i", "install", "publish", "remove", "update"],
  yarn: ["add", "install", "publish", "remove", "upgrade"],
  docker: ["build", "kill", "prune", "push", "rm", "rmi", "run", "stop"],
  kubectl: ["apply", "create", "delete", "drain", "edit", "patch", "replace", "scale"],
};

const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "ash"]);

/** What an exec tool's argv visibly changes, if anything (cheap: command, first word, a few flags). */
export function mutation(argv: string[]): string | undefined {
  const command = (argv[0] ?? "").split("/").pop() ?? "";
  // `sh -c SCRIPT`: the script is the command line; look at each simple command in it.
  const c = SHELLS.has(command) ? argv.findIndex((a, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(a)) : -1;
  if (c > 0 && argv[c + 1] !== undefined) return scriptMutation(argv[c + 1]!);
  if (MUTATING.has(command)) return `runs ${command}`;
  const sub = argv.slice(1).find((a) => !a.startsWith("-"));
  if (sub && MUTATING_SUB[command]?.includes(sub)) return `runs ${command} ${sub}`;
  if (command === "find" && argv.some((a) => a === "-delete" || a === "-exec")) return "runs find with -delete/-exec";
  if ((command === "sed" || command === "perl") && argv.some((a) => /^-[a-zA-Z]*i/.test(a) || a === "--in-place")) return `edits files in place (${command} -i)`;
  return undefined;
}

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

/** Why the annotations contradict the tool, and which hint is wrong. */
function contradiction(t: LintTool): [string, string] | undefined {
  const a = t.annotations;
  if (a.readOnlyHint && a.destructiveHint) return ["readOnlyHint and destructiveHint are both true", "destructiveHint"];
  const http = t.raw.http as { method?: string } | undefined;
  const exec = t.raw.exec as { argv?: string[] } | undefined;
  if (http?.method && a.readOnlyHint && WRITES.has(http.method)) return [`an HTTP ${http.method} is marked readOnlyHint: true`, "readOnlyHint"];
  if (http?.method && a.destructiveHint && (http.method === "GET" || http.method === "HEAD")) return [`an HTTP ${http.method} is marked destructiveHint: true`, "destructiveHint"];
  const m = exec?.argv ? mutation(exec.argv) : undefined;
  if (m && a.readOnlyHint) return [`the tool ${m} but is marked readOnlyHint: true`, "readOnlyHint"];
  return undefined;
}

export const annotationRules: ToolRule[] = [
  {
    code: "KV606",
    summary: "the spec states the tool's annotations",
    tool(t, _s, report) {
      if (t.annotationsGiven) return;
      report(`tool '${t.name}' gives no annotations; clients fall back to guesses about what it changes`, `${t.pointer}/name`, {
        suggestion: "add `annotations: { readOnlyHint, destructiveHint, idempotentHint, openWorldHint }`",
      });
    },
  },
  {
    code: "KV607",
    summary: "annotations agree with what the kind does (HTTP method, command)",
    tool(t, _s, report) {
      const found = contradiction(t);
      if (!found) return;
      const [why, hint] = found;
      const given = (t.raw.annotations ?? {}) as Record<string, unknown>;
      report(`annotations of '${t.name}' contradict the tool: ${why}`, hint in given ? `${t.pointer}/annotations/${hint}` : `${t.pointer}/name`, {
        atKey: true,
        suggestion: "correct the annotations (or the request/command) so a client can trust them",
      });
    },
  },
];
