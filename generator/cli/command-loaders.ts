// Each command's module, loaded only when that command runs: one command's dependencies (esbuild,
// the importer, the serving runtime, the deploy renderers) are start-up time the others should not
// pay. The same commands as cli/commands.ts, in the same order (test/cli/lazy-commands.test.ts).
import type { Command } from "./command.js";

export const COMMAND_LOADERS: Record<string, () => Promise<Command>> = {
  init: async () => (await import("./init.js")).initCommand,
  gen: async () => (await import("./gen.js")).genCommand,
  serve: async () => (await import("./serve.js")).serveCommand,
  audit: async () => (await import("./audit.js")).auditCommand,
  changelog: async () => (await import("./audit.js")).changelogCommand,
  "client-config": async () => (await import("./client-config.js")).clientConfigCommand,
  pack: async () => (await import("./pack.js")).packCommand,
  deploy: async () => (await import("./deploy.js")).deployCommand,
  import: async () => (await import("./import.js")).importCommand,
  schema: async () => (await import("./schema.js")).schemaCommand,
};

/** The command named `name`, loaded; undefined for a name that is no command. */
export function loadCommand(name: string): Promise<Command> | undefined {
  return Object.hasOwn(COMMAND_LOADERS, name) ? COMMAND_LOADERS[name]!() : undefined;
}
