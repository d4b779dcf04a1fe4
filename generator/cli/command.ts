// One CLI command: its name, help text and options in one place. The global help, each command's
// `--help` and the argument parser are all read from this, so they cannot disagree.
import { UsageError } from "./sources.js";

export type Options = Map<string, string | true>;

export interface Parsed {
  positional: string[];
  options: Options;
  /** `--tool ...` blocks (CLI form), from the first --tool on. */
  toolArgs: string[];
}

export interface OptionSpec {
  /** As shown in help: `--out DIR` takes a value, `--check` does not. */
  flag: string;
  help: string;
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Usage lines, without the leading `kervan `. */
  usage: string[];
  /** Paragraphs said after the usage. */
  details?: string;
  options: OptionSpec[];
  examples: string[];
  /** Accepts the CLI form's `--tool` blocks. */
  toolBlocks?: boolean;
  run(p: Parsed): Promise<number> | number;
}

/** Parses a command's arguments by its own option table; `-h`/`--help` is known to every command. */
export function parseArgs(command: Command, args: string[]): Parsed {
  const takesValue = new Map(command.options.map((o) => [o.flag.split(" ")[0], o.flag.includes(" ")]));
  const first = command.toolBlocks ? args.indexOf("--tool") : -1;
  const head = first < 0 ? args : args.slice(0, first);
  const parsed: Parsed = { positional: [], options: new Map(), toolArgs: first < 0 ? [] : args.slice(first) };
  for (let i = 0; i < head.length; i++) {
    const a = head[i];
    if (a === "--help" || a === "-h") parsed.options.set("--help", true);
    else if (takesValue.get(a) === true) {
      if (head[i + 1] === undefined) throw new UsageError(`${a} requires a value`);
      parsed.options.set(a, head[++i]);
    } else if (takesValue.get(a) === false) parsed.options.set(a, true);
    else if (a.startsWith("-") && a !== "-") throw new UsageError(`unknown option ${a} for \`kervan ${command.name}\``);
    else parsed.positional.push(a);
  }
  return parsed;
}

export function stringOption(p: Parsed, name: string): string | undefined {
  return optionValue(p.options, name);
}

/** A value-taking option's value (parseArgs sets those only to strings); undefined when not given. */
export function optionValue(options: Options, name: string): string | undefined {
  const raw = options.get(name);
  return typeof raw === "string" ? raw : undefined;
}
