// kervan COMMAND: the commands live in cli/ (one file each, listed in cli/commands.ts).
// Exit codes: 0 ok, 1 drift, diagnostics or a breaking change, 2 usage errors, 70 internal errors.
import { generatorVersion } from "./manifest.js";
import { UsageError } from "./cli/sources.js";
import { parseArgs } from "./cli/command.js";
import { commandHelp, globalHelp } from "./cli/help.js";
import { COMMANDS } from "./cli/commands.js";

/** The command being run, so a usage error can point at its own help. */
let current = "";

async function main(argv: string[]): Promise<number> {
  // `kervan --tool ... --exec ...` with no command serves, as the seed's CLI form does.
  if (argv[0] === "--tool") argv = ["serve", ...argv];
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    const topic = name === "help" ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    process.stdout.write(topic ? commandHelp(topic) : globalHelp(generatorVersion(), COMMANDS));
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v" || name === "-V" || name === "version") {
    process.stdout.write(`${generatorVersion()}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  current = command.name;
  const parsed = parseArgs(command, rest);
  if (parsed.options.has("--help")) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  return command.run(parsed);
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`kervan: ${e.message}\n(run \`kervan ${current ? `${current} ` : ""}--help\` for usage)\n`);
      process.exitCode = 2;
    } else {
      // An internal failure, not a bad spec: keep the stack, it is a bug report.
      process.stderr.write(`kervan: internal error: ${(e as Error)?.stack ?? e}\n`);
      process.exitCode = 70;
    }
  },
);
