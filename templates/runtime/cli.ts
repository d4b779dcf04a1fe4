// Command-line options of a generated server: stdio by default, Streamable HTTP with --http.
import { StartupError } from "./types.js";

export interface CliOptions {
  http?: { host: string; port: number };
  /** Extra Host/Origin names accepted besides loopback ones (DNS-rebinding allow-list). */
  allowedHosts: string[];
  help: boolean;
  version: boolean;
}

export const DEFAULT_HOST = "127.0.0.1";

function parsePort(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new StartupError(`invalid port "${text}" (expected 0-65535)`);
  return Number(text);
}

export function parseArgs(argv: readonly string[]): CliOptions {
  const opts: CliOptions = { allowedHosts: [], help: false, version: false };
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
      case "-h":
      case "--help":
        opts.help = true;
        break;
      case "--version":
        opts.version = true;
        break;
      default:
        throw new StartupError(`unknown argument "${arg}" (try --help)`);
    }
  }
  if (port !== undefined) opts.http = { host: host ?? DEFAULT_HOST, port };
  else if (host !== undefined) throw new StartupError("--host needs --http PORT");
  return opts;
}

export function usage(name: string): string {
  return [
    `usage: ${name} [--http PORT] [--host HOST] [--allowed-hosts NAME,...]`,
    "",
    "Serves MCP (2026-07-28 and 2025-11-25) over stdio, newline-delimited JSON-RPC, by default.",
    `  --http PORT            serve Streamable HTTP at http://HOST:PORT/mcp instead (PORT 0 picks a free port)`,
    `  --host HOST            address to bind with --http (default ${DEFAULT_HOST})`,
    "  --allowed-hosts LIST   extra Host/Origin names to accept besides localhost (DNS-rebinding protection)",
    "  --version              print the server name and version",
  ].join("\n");
}
