// `kervan serve SPEC` and the bare CLI form `kervan --tool ...`: build into a cache folder, then run
// the generated server in the foreground.
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "../pipeline.js";
import { sha256 } from "../shared/hash.js";
import { printDiagnostics, sourcesFrom, TOOL_OPTIONS } from "./gen.js";
import { UsageError } from "./sources.js";
import { stringOption, type Command } from "./command.js";
import { SERVING_SWITCHES, SERVING_VALUE_FLAGS } from "../../templates/runtime/serving-flags.js";

export const serveCommand: Command = {
  name: "serve",
  summary: "build a spec (or --tool blocks) into a cache and run its server",
  usage: ["serve SPEC [--http PORT] [--host HOST]", "[serve] [--http PORT] [--server-name NAME] --tool --name N [OPTIONS] --exec CMD [ARG ...] [--tool ...]"],
  details: `Serves over stdio unless --http is given. The build is cached by the sources' hash, so the
next start with the same spec or flags skips every stage.

${TOOL_OPTIONS}`,
  options: [
    { flag: "--http PORT", help: "serve Streamable HTTP on PORT instead of stdio" },
    { flag: "--host HOST", help: "address to listen on with --http (default: 127.0.0.1)" },
    { flag: "--server-name NAME", help: "CLI form: the server's name (default: kervan-cli)" },
    { flag: "--server-version V", help: "CLI form: the server's version (default: 0.1.0)" },
    // Authorization, drain and log flags go to the server as given (a generated server's --help explains them).
    ...SERVING_VALUE_FLAGS.map((f) => ({ flag: `${f} VALUE`, help: "passed to the server (see its --help)" })),
    ...SERVING_SWITCHES.map((f) => ({ flag: f, help: "passed to the server (see its --help)" })),
  ],
  examples: ["kervan serve specs/weather.yaml --http 8080", "kervan --tool --name disk_usage --description 'Disk usage of the file systems.' --exec df -h"],
  toolBlocks: true,
  async run(p) {
    const sources = sourcesFrom(p, []);
    // Built into a cache folder named by the sources' hash: the next start with the same spec or
    // flags finds its manifest and skips every stage (the generator's fingerprint guards staleness).
    const key = sha256(JSON.stringify(sources.map((s) => [s.path, s.text])));
    const dir = join(tmpdir(), "kervan-serve", key.slice(0, 32));
    const result = await generate(sources, { outRoot: dir, check: false, pruneServers: false });
    printDiagnostics(result, sources);
    if (!result.report) return 1;
    if (result.servers.length !== 1) throw new UsageError(`serve runs one server; the specs describe ${result.servers.length}`);
    const args = [join(dir, result.servers[0], "server.mjs")];
    const http = stringOption(p, "--http");
    const host = stringOption(p, "--host");
    if (http !== undefined) args.push("--http", http);
    if (host !== undefined) args.push("--host", host);
    for (const flag of SERVING_VALUE_FLAGS) if (p.options.has(flag)) args.push(flag, stringOption(p, flag)!);
    for (const flag of SERVING_SWITCHES) if (p.options.has(flag)) args.push(flag);
    const child = spawn(process.execPath, args, { stdio: "inherit" });
    for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
    return await new Promise<number>((done) => child.on("exit", (code, signal) => done(code ?? (signal ? 1 : 0))));
  },
};
