// `kervan serve SPEC` and the bare CLI form `kervan --tool ...`: build into a cache folder, then run
// the generated server in the foreground.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { generate } from "../pipeline.js";
import { sha256 } from "../shared/hash.js";
import { errorCode } from "../shared/object.js";
import { printDiagnostics, sourcesFrom } from "./gen-once.js";
import { TOOL_OPTIONS } from "./gen.js";
import { UsageError } from "./sources.js";
import { stringOption, type Command } from "./command.js";
import { SERVING_SWITCHES, SERVING_VALUE_FLAGS } from "../../templates/runtime/serving-flags.js";

/** Options of the generated server itself (its --help), passed on as given. */
const SERVER_VALUE_FLAGS = ["--cwd", "--allowed-hosts", "--allowed-origins", "--headers-timeout", "--request-timeout", "--max-connections"];

export class ServeRefused extends Error {}

/**
 * This user's build cache, `$TMPDIR/kervan-serve-<uid>`, mode 700: made if missing, its mode
 * tightened if it is ours, refused if it is anything else (another user's folder, a link).
 */
export function serveCache(root = tmpdir()): string {
  const uid = process.getuid?.();
  const dir = join(root, `kervan-serve-${uid ?? userInfo().username}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if (errorCode(e) !== "EEXIST") throw new ServeRefused(`cannot make the cache folder ${dir}: ${errorCode(e)}`);
  }
  const st = lstatSync(dir);
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) throw new ServeRefused(`the cache folder ${dir} is not this user's own (a folder owned by uid ${st.uid}${st.isDirectory() ? "" : ", not a folder"}); remove it`);
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return dir;
}

/**
 * Runs the server in the foreground until it exits. SIGINT, SIGTERM and SIGHUP are passed on; and
 * when whoever started kervan goes away without a signal reaching it (npx killed: kervan is
 * orphaned), the server is stopped too, rather than left running.
 */
function runChild(args: string[]): Promise<number> {
  const child: ChildProcess = spawn(process.execPath, args, { stdio: "inherit" });
  const parent = process.ppid;
  const forward = (sig: NodeJS.Signals) => () => child.kill(sig);
  const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((sig) => [sig, forward(sig)] as const);
  for (const [sig, handler] of handlers) process.on(sig, handler);
  const orphaned = setInterval(() => {
    if (process.ppid !== parent) child.kill("SIGTERM");
  }, 500);
  return new Promise<number>((done) =>
    child.on("exit", (code, signal) => {
      clearInterval(orphaned);
      for (const [sig, handler] of handlers) process.off(sig, handler);
      done(code ?? (signal ? 1 : 0));
    }),
  );
}

export const serveCommand: Command = {
  name: "serve",
  summary: "build a spec (or --tool blocks) into a cache and run its server",
  usage: ["serve SPEC [--http PORT] [--host HOST] [--cwd DIR]", "[serve] [--http PORT] [--cwd DIR] [--server-name NAME] --tool --name N [OPTIONS] --exec CMD [ARG ...] [--tool ...]"],
  details: `Serves over stdio unless --http is given. The build is cached by the sources' hash in
$TMPDIR/kervan-serve-<uid> (mode 700), so the next start with the same spec or flags skips every
stage. Stopping kervan (a signal, or the process that started it going away) stops the server.

${TOOL_OPTIONS}`,
  options: [
    { flag: "--http PORT", help: "serve Streamable HTTP on PORT instead of stdio" },
    { flag: "--host HOST", help: "address to listen on with --http (default: 127.0.0.1)" },
    { flag: "--server-name NAME", help: "CLI form: the server's name (default: kervan-cli)" },
    { flag: "--server-version V", help: "CLI form: the server's version (default: 0.1.0)" },
    // The server's own options, authorization, drain and log flags go to it as given (a generated server's --help explains them).
    ...SERVER_VALUE_FLAGS.map((f) => ({ flag: `${f} VALUE`, help: "passed to the server (see its --help)" })),
    ...SERVING_VALUE_FLAGS.map((f) => ({ flag: `${f} VALUE`, help: "passed to the server (see its --help)" })),
    ...SERVING_SWITCHES.map((f) => ({ flag: f, help: "passed to the server (see its --help)" })),
  ],
  examples: ["kervan serve specs/weather.yaml --http 8080", "kervan --tool --name disk_usage --description 'Disk usage of the file systems.' --exec df -h"],
  toolBlocks: true,
  async run(p) {
    if (!p.positional.length && !p.toolArgs.length) throw new UsageError("serve needs a spec file or --tool blocks (e.g. `kervan serve specs/weather.yaml`)");
    const sources = sourcesFrom(p, []);
    // Built into a cache folder named by the sources' hash: the next start with the same spec or
    // flags finds its manifest and skips every stage (the generator's fingerprint guards staleness).
    const key = sha256(JSON.stringify(sources.map((s) => [s.path, s.text])));
    let cache: string;
    try {
      cache = serveCache();
    } catch (e) {
      if (!(e instanceof ServeRefused)) throw e;
      process.stderr.write(`kervan: ${e.message}\n`);
      return 1;
    }
    const dir = join(cache, key.slice(0, 32));
    const result = await generate(sources, { outRoot: dir, check: false, pruneServers: false });
    printDiagnostics(result, sources);
    if (!result.report) return 1;
    if (result.servers.length !== 1) throw new UsageError(`serve runs one server; the specs describe ${result.servers.length}`);
    const args = [join(dir, result.servers[0], "server.mjs")];
    const http = stringOption(p, "--http");
    const host = stringOption(p, "--host");
    if (http !== undefined) args.push("--http", http);
    if (host !== undefined) args.push("--host", host);
    for (const flag of [...SERVER_VALUE_FLAGS, ...SERVING_VALUE_FLAGS]) if (p.options.has(flag)) args.push(flag, stringOption(p, flag)!);
    for (const flag of SERVING_SWITCHES) if (p.options.has(flag)) args.push(flag);
    return runChild(args);
  },
};
