// The one list of shells and inline interpreters: what AUDIT.md calls "runs a shell" and what the
// read-only lint (KV607) reads a script from. A command counts by its base name.

/** Shells: whatever their arguments, they run a command language. */
export const SHELLS: readonly string[] = ["sh", "bash", "dash", "ash", "ksh", "mksh", "zsh", "fish", "busybox", "pwsh", "powershell", "cmd"];

/** Interpreters that run a script given inline, and the flags that give it. */
export const INLINE_INTERPRETERS: Readonly<Record<string, readonly string[]>> = {
  python: ["-c"],
  node: ["-e", "--eval", "-p", "--print"],
  nodejs: ["-e", "--eval", "-p", "--print"],
  perl: ["-e", "-E"],
  ruby: ["-e"],
};

/** `python3`, `python3.12` and `perl5.36` read as their family. */
const family = (command: string) => command.replace(/^(python|perl|ruby)[0-9.]*$/, "$1");

export const baseName = (command: string): string => command.split(/[/\\]/).pop() ?? "";

export interface ShellUse {
  /** The shell or interpreter, by base name. */
  program: string;
  /** A shell (its script is a command line), not an interpreter of a programming language. */
  shell: boolean;
  /** The inline script, when argv gives one (`sh -c SCRIPT`, `python -c CODE`). */
  script?: string;
}

/** How an argv runs a shell or an inline interpreter script, or undefined when it does neither. */
export function shellUse(argv: readonly string[]): ShellUse | undefined {
  const program = baseName(argv[0] ?? "");
  if (SHELLS.includes(program)) {
    // `sh -c`, `bash -lc`, `pwsh -Command`, `cmd /c`: the next argument is the script.
    const flag = argv.findIndex((a, i) => i > 0 && (/^-[A-Za-z]*c[A-Za-z]*$/.test(a) || /^-command$/i.test(a) || /^\/c$/i.test(a)));
    const script = flag > 0 ? argv[flag + 1] : undefined;
    return { program, shell: true, ...(script !== undefined ? { script } : {}) };
  }
  const flags = INLINE_INTERPRETERS[family(program)];
  if (!flags) return undefined;
  const flag = argv.findIndex((a, i) => i > 0 && flags.includes(a));
  if (flag < 0) return undefined; // a script file: the audit lists the command itself
  return { program, shell: false, ...(argv[flag + 1] !== undefined ? { script: argv[flag + 1] } : {}) };
}
