// Help text: the command list for `kervan help`, and one command's page for `kervan CMD --help`.
import type { Command } from "./command.js";
import { JSON_COMMANDS, JSON_OPTION } from "./output.js";

function table(rows: [string, string][], indent = "  "): string[] {
  const width = Math.min(34, Math.max(...rows.map(([a]) => a.length)));
  return rows.map(([a, b]) => (a.length > width ? `${indent}${a}\n${indent}${" ".repeat(width + 2)}${b}` : `${indent}${a.padEnd(width + 2)}${b}`));
}

export function globalHelp(version: string, commands: Command[]): string {
  return [
    `kervan ${version}: MCP servers from YAML tool specs`,
    "",
    "Usage: kervan COMMAND [ARGS] [OPTIONS]",
    "",
    "Commands:",
    ...table(commands.map((c) => [c.name, c.summary])),
    "",
    "Options:",
    ...table([
      ["-h, --help", "this help; `kervan COMMAND --help` shows one command's options and an example"],
      ["-v, --version", "print the version"],
    ]),
    "",
    "Exit codes: 0 ok, 1 diagnostics, drift or a breaking change, 2 usage error.",
    "",
  ].join("\n");
}

export function commandHelp(c: Command): string {
  const out = [`kervan ${c.name}: ${c.summary}`, "", "Usage:", ...c.usage.map((u) => `  kervan ${u}`)];
  if (c.details) out.push("", c.details);
  const options = JSON_COMMANDS.has(c.name) ? [...c.options, JSON_OPTION] : c.options;
  out.push("", "Options:", ...table([...options.map((o): [string, string] => [o.flag, o.help]), ["-h, --help", "this help"]]));
  out.push("", c.examples.length === 1 ? "Example:" : "Examples:", ...c.examples.map((e) => `  ${e}`), "");
  return out.join("\n");
}
