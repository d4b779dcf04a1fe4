// Command-line options of a generated server: stdio by default, Streamable HTTP with --http.
import { StartupError } from "./types.js";
import { parseOrigins } from "./http-guard.js";
import { DEFAULT_LIMITS, type Limits } from "./http-limits.js";
import { defaultServing, SERVING_USAGE, servingFlag, type ServingOptions } from "./serving-flags.js";

export interface CliOptions {
  http?: { host: string; port: number };
  /** Extra Host/Origin names accepted besides loopback ones (DNS-rebinding allow-list). */
  allowedHosts: string[];
  /** Browser origins (scheme://host[:port]) allowed to call the HTTP endpoint; none by default. */
  allowedOrigins: string[];
  limits: Limits;
  /** Working directory to change to before anything else (for clients that cannot set one). */
  cwd?: string;
  help: boolean;
  version: boolean;
  serving: ServingOptions;
}

export const DEFAULT_HOST = "127.0.0.1";

function parseSeconds(name: string, text: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(seconds > 0 && seconds <= 86_400)) throw new StartupError(`${name}: "${text}" is not a number of seconds (0 < seconds <= 86400)`);
  return Math.max(1, Math.round(seconds * 1000));
}

function parseCount(name: string, text: string): number {
  const count = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
  if (!(count >= 1)) throw new StartupError(`${name}: "${text}" is not a positive whole number`);
  return count;
}

function parsePort(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new StartupError(`invalid port "${text}" (expected 0-65535)`);
  return Number(text);
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  const opts: CliOptions = { allowedHosts: [], allowedOrigins: [], limits: { ...DEFAULT_LIMITS }, help: false, version: false, serving: defaultServing(env) };
  let host: string | undefined;
  let port: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (name !== arg) return arg.slice(eq + 1);
      const next = argv[++i];
      if (next === undefined) throw new StartupError(`option ${name} needs a value`);
      return next;
    };
    switch (name) {
      case "--http": {
        // PORT, :PORT or HOST:PORT
        const text = value();
        const colon = text.lastIndexOf(":");
        if (colon > 0) host = text.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
        port = parsePort(colon >= 0 ? text.slice(colon + 1) : text);
        break;
      }
      case "--host":
        host = value();
        break;
      case "--allowed-hosts":
        opts.allowedHosts.push(...value().split(",").map((h) => h.trim().toLowerCase()).filter(Boolean));
        break;
      case "--allowed-origins":
        opts.allowedOrigins.push(...parseOrigins(value().split(",").map((o) => o.trim()).filter(Boolean)));
        break;
      case "--headers-timeout":
        opts.limits.headersTimeoutMs = parseSeconds(name, value());
        break;
      case "--request-timeout":
        opts.limits.requestTimeoutMs = parseSeconds(name, value());
        break;
      case "--max-connections":
        opts.limits.maxConnections = parseCount(name, value());
        break;
      case "--cwd":
        opts.cwd = value();
        break;
      case "-h":
      case "--help":
        opts.help = true;
        break;
      case "--version":
        opts.version = true;
        break;
      default:
        if (servingFlag(name, value, opts.serving)) break;
        throw new StartupError(`unknown argument "${arg}" (try --help)`);
    }
  }
  if (port !== undefined) opts.http = { host: host ?? DEFAULT_HOST, port };
  else if (host !== undefined) throw new StartupError("--host needs --http PORT");
  return opts;
}

export function usage(name: string): string {
  return [
    `usage: ${name} [--cwd DIR] [--http PORT] [--host HOST] [--allowed-hosts NAME,...] [--allowed-origins ORIGIN,...]`,
    `       ${" ".repeat(name.length)} [--headers-timeout SECONDS] [--request-timeout SECONDS] [--max-connections N]`,
    "",
    "Serves MCP (2026-07-28 and 2025-11-25) over stdio, newline-delimited JSON-RPC, by default.",
    "  --cwd DIR              working directory of the server and its tools (default: where it is started)",
    `  --http PORT            serve Streamable HTTP at http://HOST:PORT/mcp instead (PORT 0 picks a free port)`,
    `  --host HOST            address to bind with --http (default ${DEFAULT_HOST})`,
    "  --allowed-hosts LIST   extra Host names to accept besides localhost (DNS-rebinding protection)",
    "  --allowed-origins LIST browser origins (scheme://host[:port]) allowed to call the server; none by default",
    `  --headers-timeout S    close a connection whose request headers take longer (default ${DEFAULT_LIMITS.headersTimeoutMs / 1000})`,
    `  --request-timeout S    close a connection whose whole request takes longer (default ${DEFAULT_LIMITS.requestTimeoutMs / 1000})`,
    `  --max-connections N    open connections at most; the oldest one not being served makes room (default ${DEFAULT_LIMITS.maxConnections})`,
    "  --version              print the server name and version",
    ...SERVING_USAGE,
  ].join("\n");
}
