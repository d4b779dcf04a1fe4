// `kervan schema`: the spec format as JSON Schema, for editors.
import { specSchema } from "../check/spec-schema.js";
import type { Command } from "./command.js";

export const schemaCommand: Command = {
  name: "schema",
  summary: "print kervan.schema.json (the spec format, for editors)",
  usage: ["schema"],
  details: "Point an editor at it with a first line `# yaml-language-server: $schema=PATH` in a spec.",
  options: [],
  examples: ["kervan schema > kervan.schema.json"],
  run() {
    process.stdout.write(JSON.stringify(specSchema(), null, 2) + "\n");
    return 0;
  },
};
