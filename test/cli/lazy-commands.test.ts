// The CLI loads only the command it runs (cli/command-loaders.ts); the help reads the eager table
// (cli/commands.ts). The two must list the same commands, in the same order, as the same objects.
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../generator/cli/commands.js";
import { COMMAND_LOADERS, loadCommand } from "../../generator/cli/command-loaders.js";

describe("lazily loaded commands", () => {
  it("the loaders and the command table name the same commands in the same order", () => {
    expect(Object.keys(COMMAND_LOADERS)).toEqual(COMMANDS.map((c) => c.name));
  });

  it.each(COMMANDS.map((c) => c.name))("loading `%s` gives the table's command", async (name) => {
    expect(await loadCommand(name)).toBe(COMMANDS.find((c) => c.name === name));
  });

  it("a name that is no command, even one of Object.prototype's, loads nothing", () => {
    expect(loadCommand("nope")).toBeUndefined();
    expect(loadCommand("toString")).toBeUndefined();
  });
});
