// The command table: one entry per command, each in its own file with its own help and options.
// Listed in the order `kervan help` shows them.
import type { Command } from "./command.js";
import { initCommand } from "./init.js";
import { genCommand } from "./gen.js";
import { serveCommand } from "./serve.js";
import { auditCommand, changelogCommand } from "./audit.js";
import { schemaCommand } from "./schema.js";
import { clientConfigCommand } from "./client-config.js";
import { packCommand } from "./pack.js";
import { deployCommand } from "./deploy.js";
import { importCommand } from "./import.js";

export const COMMANDS: Command[] = [initCommand, genCommand, serveCommand, auditCommand, changelogCommand, clientConfigCommand, packCommand, deployCommand, importCommand, schemaCommand];
