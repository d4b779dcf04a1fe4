// runServer: options, startup checks, then exactly one transport.
import { parseArgs, usage, type CliOptions } from "./cli.js";
import { createCore } from "./core.js";
import { describeError, flushLog, log, setLogName } from "./log.js";
import { installProcessGuards, onShutdown, shutdown } from "./shutdown.js";
import { startStdio } from "./stdio.js";
import { StartupError, type ServerDef } from "./types.js";
import { checkExposure, resolveAuth } from "./auth/resolve.js";
import { configureRequestLog } from "./request-log.js";

/** One line, no stack, exit 2: configuration problems are for the person starting the server. */
function fail(def: ServerDef, err: unknown): never {
  flushLog(); // earlier lines first
  if (err instanceof StartupError) {
    process.stderr.write(`${def.name}: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`${def.name}: startup failed: ${describeError(err)}\n`);
  process.exit(1);
}

function changeDir(dir: string): void {
  try {
    process.chdir(dir);
  } catch (err) {
    throw new StartupError(`--cwd ${dir}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such folder" : (err as Error).message}`);
  }
}

async function main(def: ServerDef, opts: CliOptions): Promise<void> {
  try {
    if (opts.cwd !== undefined) changeDir(opts.cwd);
    await def.startup?.();
  } catch (err) {
    fail(def, err);
  }
  const core = createCore(def);
  if (def.telemetry) {
    const telemetry = def.telemetry({ name: def.name, version: def.version });
    core.telemetry = telemetry;
    onShutdown(() => telemetry.shutdown());
  }
  if (def.modes) {
    try {
      const modes = await def.modes(def);
      core.modes = modes;
      onShutdown(() => modes.close());
    } catch (err) {
      fail(def, err);
    }
  }
  configureRequestLog(def.name, opts.serving);
  if (!opts.http) {
    startStdio(core);
    // One line on stderr, so a person who started the server by hand sees it is up, not hung.
    log(`ready on stdio (${def.tools.length} tool${def.tools.length === 1 ? "" : "s"}); waiting for a client`);
    return;
  }
  const { startHttp } = await import("./http.js");
  const { createAuthGate } = await import("./auth/gate.js");
  let gate;
  try {
    const auth = resolveAuth(def.http?.auth, opts.serving);
    const warning = checkExposure(opts.http.host, auth, opts.serving.insecureNoAuth);
    if (warning) log(warning);
    gate = await createAuthGate(core, auth);
  } catch (err) {
    fail(def, err);
  }
  try {
    await startHttp(core, { ...opts.http, allowedHosts: opts.allowedHosts, allowedOrigins: opts.allowedOrigins, limits: opts.limits, gate, drainMs: opts.serving.drainMs, drainGraceMs: opts.serving.drainGraceMs });
  } catch (err) {
    const where = `${opts.http.host}:${opts.http.port}`;
    fail(def, new StartupError(`cannot listen on ${where}: ${err instanceof Error ? err.message : String(err)}`));
  }
  // In HTTP mode stdin is not the protocol channel (it is often /dev/null), so its EOF means nothing.
}

export function runServer(def: ServerDef, argv: readonly string[] = process.argv.slice(2)): void {
  if (def.workerRoles?.some((role) => role())) return; // a worker thread of this bundle, not a server
  setLogName(def.name);
  let opts: CliOptions;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    fail(def, err);
  }
  if (opts.help) {
    process.stdout.write(usage(def.name) + "\n");
    return;
  }
  if (opts.version) {
    process.stdout.write(`${def.name} ${def.version}\n`);
    return;
  }
  installProcessGuards();
  main(def, opts).catch((err) => {
    log(`fatal: ${describeError(err)}`);
    void shutdown(1);
  });
}
