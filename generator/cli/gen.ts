// `kervan gen`: specs (or --tool blocks) to generated servers; --check proves the checked-in
// output, --watch rebuilds on every change of a spec or a schema it includes.
import { jsonMode } from "./output.js";
import { UsageError } from "./sources.js";
import type { Command } from "./command.js";
import { genOnce } from "./gen-once.js";

export const TOOL_OPTIONS = `Tool options (CLI form, per --tool block):
  --name NAME  --title TEXT  --description TEXT  --input-schema JSON|@FILE  --cwd DIR
  --annotations JSON   e.g. '{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}'
  The tools are linted as a spec's are (warnings; errors under --strict).
  --fs-path-field FIELD  --fs-root DIR  --fs-deny-path PATH        (repeatable)
  --env-pass NAME  --env-set NAME=VALUE                             (repeatable)
  --process-timeout-ms MS  --process-kill-grace-ms MS  --process-output-limit-bytes N
  --process-max-concurrency N  --process-queue N  --process-rate-limit-count N  --process-rate-limit-window-ms MS
  --process-progress-interval-ms MS
  --exec CMD [ARG ...]   argv until the next exact --tool; {field} inserts an input value`;

export const genCommand: Command = {
  name: "gen",
  summary: "generate servers from specs (or from --tool blocks) into out/",
  usage: [
    "gen [SPEC|DIR ...] [--out DIR] [--check] [--strict] [--verbose] [--watch] [--json]",
    "gen [--out DIR] [--server-name NAME] [--server-version V] --tool --name N [OPTIONS] --exec CMD [ARG ...] [--tool ...]",
  ],
  details: `Reads every .yaml/.yml/.json spec directly in each DIR (default: specs) and writes
out/<server>/server.mjs with its sources, kervan.manifest.json and AUDIT.md. An unchanged spec
costs nothing. Any error stops the build and nothing is written.

${TOOL_OPTIONS}`,
  options: [
    { flag: "--out DIR", help: "output folder (default: out)" },
    { flag: "--check", help: "write nothing; exit 1 and list the files that differ from a fresh build" },
    { flag: "--strict", help: "treat every warning (the lint included) as an error" },
    { flag: "--verbose", help: "print each stage's name and time" },
    { flag: "--watch", help: "build, then rebuild on every change of a spec or a schema file it includes" },
    { flag: "--server-name NAME", help: "CLI form: the server's name (default: kervan-cli)" },
    { flag: "--server-version V", help: "CLI form: the server's version (default: 0.1.0)" },
  ],
  examples: ["kervan gen", "kervan gen specs/weather.yaml --out out --check --strict", "kervan gen --out out --tool --name uptime --description 'How long the machine has been up.' --exec uptime"],
  toolBlocks: true,
  async run(p) {
    if (p.options.has("--watch")) {
      if (p.options.has("--check")) throw new UsageError("--watch and --check do not go together");
      if (jsonMode()) throw new UsageError("--watch and --json do not go together");
      if (p.toolArgs.length) throw new UsageError("--watch rebuilds spec files; it does not take --tool blocks");
      const { watch } = await import("./watch.js");
      return watch(p);
    }
    return (await genOnce(p)).code;
  },
};
