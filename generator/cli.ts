// kervan COMMAND: the commands live in cli/ (one file each, listed in cli/commands.ts). Only the
// command being run is loaded (cli/command-loaders.ts); the help loads them all.
// Exit codes: 0 ok, 1 drift, diagnostics or a breaking change, 2 usage errors, 70 internal errors.
import { UsageError } from "./cli/sources.js";
import { parseArgs } from "./cli/command.js";
import { commandHelp, globalHelp } from "./cli/help.js";
import { loadCommand } from "./cli/command-loaders.js";
import { finishJson, JSON_COMMANDS, startJson, stopJson } from "./cli/output.js";

/** What a thrown value says of itself: its stack when it has one, else the value. */
const stackOf = (e: unknown): unknown => (typeof e === "object" && e !== null && "stack" in e && e.stack != null ? e.stack : e);

const version = async () => (await import("./manifest.js")).generatorVersion();

/** The command being run (a process runs one), so a usage error can point at its own help. */
let current = "";

async function main(argv: string[]): Promise<number> {
  let rest: string[];
  // `kervan --tool ... --exec ...` with no command serves, as the seed's CLI form does.
  if (argv[0] === "--tool") argv = ["serve", ...argv];
  const name = argv[0];
  rest = argv.slice(1);
  if (!name || name === "help" || name === "--help" || name === "-h") {
    const { COMMANDS } = await import("./cli/commands.js");
    const topic = name === "help" ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    process.stdout.write(topic ? commandHelp(topic) : globalHelp(await version(), COMMANDS));
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v" || name === "-V" || name === "version") {
    process.stdout.write(`${await version()}\n`);
    return 0;
  }
  const command = await loadCommand(name);
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  current = command.name;
  // `--json` (before any --tool block) switches a reporting command to one JSON object on stdout.
  const head = rest.indexOf("--tool") < 0 ? rest.length : rest.indexOf("--tool");
  const json = rest.slice(0, head).indexOf("--json");
  if (json >= 0 && JSON_COMMANDS.has(command.name)) {
    rest = rest.filter((_, i) => i !== json);
    startJson();
  }
  const parsed = parseArgs(command, rest);
  if (parsed.options.has("--help")) {
    stopJson();
    process.stdout.write(commandHelp(command));
    return 0;
  }
  const code = await command.run(parsed);
  finishJson(command.name, code);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    const message = e instanceof UsageError ? e.message : String(stackOf(e));
    if (finishJson(current, e instanceof UsageError ? 2 : 70, { kind: e instanceof UsageError ? "usage" : "internal", message })) {
      process.exitCode = e instanceof UsageError ? 2 : 70;
    } else if (e instanceof UsageError) {
      process.stderr.write(`kervan: ${e.message}\n(run \`kervan ${current ? `${current} ` : ""}--help\` for usage)\n`);
      process.exitCode = 2;
    } else {
      // An internal failure, not a bad spec: keep the stack, it is a bug report.
      process.stderr.write(`kervan: internal error: ${stackOf(e)}\n`);
      process.exitCode = 70;
    }
  },
);
