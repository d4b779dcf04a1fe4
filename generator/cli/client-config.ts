// `kervan client-config SERVER --client NAME`: the snippet an MCP client's configuration file needs
// to start a generated server over stdio: absolute paths (the Node running Kervan, the bundle), the
// working directory passed as the server's own --cwd (no client has to support a cwd setting), and
// the secrets the server reads, as each client's placeholder syntax, never as values.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { MANIFEST } from "../manifest.js";
import { UsageError } from "./sources.js";
import { stringOption, type Command } from "./command.js";

interface Client {
  /** Where the snippet goes, said on stderr. */
  file: string;
  placeholder(secret: string): string;
  render(name: string, entry: { command: string; args: string[]; env: Record<string, string> }, secrets: string[]): unknown;
}

const withEnv = (env: Record<string, string>) => (Object.keys(env).length ? { env } : {});

export const CLIENTS: Record<string, Client> = {
  "claude-desktop": {
    file: "claude_desktop_config.json (Settings > Developer > Edit Config); it takes no variables, so replace each <NAME> with the value",
    placeholder: (s) => `<${s}>`,
    render: (name, e) => ({ mcpServers: { [name]: { command: e.command, args: e.args, ...withEnv(e.env) } } }),
  },
  "claude-code": {
    file: ".mcp.json at the project root (or `claude mcp add-json`); ${NAME} is read from the environment Claude Code starts in",
    placeholder: (s) => `\${${s}}`,
    render: (name, e) => ({ mcpServers: { [name]: { type: "stdio", command: e.command, args: e.args, ...withEnv(e.env) } } }),
  },
  cursor: {
    file: ".cursor/mcp.json in the project (or ~/.cursor/mcp.json); ${env:NAME} is read from Cursor's environment",
    placeholder: (s) => `\${env:${s}}`,
    render: (name, e) => ({ mcpServers: { [name]: { command: e.command, args: e.args, ...withEnv(e.env) } } }),
  },
  vscode: {
    file: ".vscode/mcp.json in the workspace; VS Code asks for each input once and keeps it in its secret storage",
    placeholder: (s) => `\${input:${inputId(s)}}`,
    render: (name, e, secrets) => ({
      ...(secrets.length ? { inputs: secrets.map((s) => ({ type: "promptString", id: inputId(s), description: `${s} for ${name}`, password: true })) } : {}),
      servers: { [name]: { type: "stdio", command: e.command, args: e.args, ...withEnv(e.env) } },
    }),
  },
};

function inputId(secret: string): string {
  return secret.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/** The snippet for one client, as data; `secrets` are the variable names the server needs. */
export function clientConfig(client: string, server: { name: string; bundle: string; cwd: string; node: string; secrets: string[] }): unknown {
  const c = CLIENTS[client];
  const env = Object.fromEntries(server.secrets.map((s) => [s, c.placeholder(s)]));
  return c.render(server.name, { command: server.node, args: [server.bundle, "--cwd", server.cwd], env }, server.secrets);
}

export const clientConfigCommand: Command = {
  name: "client-config",
  summary: "print the configuration snippet that starts a generated server in an MCP client",
  usage: ["client-config SERVER --client claude-desktop|claude-code|cursor|vscode [--out DIR] [--cwd DIR]"],
  details: `Prints JSON for the client's configuration file on stdout (where it goes, on stderr). Paths are
absolute; the server runs in --cwd (default: the current folder), where its exec tools resolve
relative paths; every secret the server reads appears as a placeholder, never as its value.`,
  options: [
    { flag: "--client NAME", help: `one of ${Object.keys(CLIENTS).join(", ")}` },
    { flag: "--out DIR", help: "output folder the server was generated into (default: out)" },
    { flag: "--cwd DIR", help: "the server's working directory (default: the current folder)" },
  ],
  examples: ["kervan client-config repo-explorer --client claude-desktop", "kervan client-config github-issues --client vscode > .vscode/mcp.json"],
  run(p) {
    if (p.positional.length !== 1) throw new UsageError("client-config takes one server name");
    const client = stringOption(p, "--client");
    if (!client || !Object.hasOwn(CLIENTS, client)) throw new UsageError(`--client must be one of ${Object.keys(CLIENTS).join(", ")}`);
    const name = p.positional[0];
    const dir = resolve(stringOption(p, "--out") ?? "out", name);
    if (!existsSync(join(dir, MANIFEST))) throw new UsageError(`no generated server ${name} in ${dir} (run \`kervan gen\` first)`);
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8"));
    const cwd = resolve(stringOption(p, "--cwd") ?? ".");
    if (!existsSync(cwd)) throw new UsageError(`--cwd ${cwd} does not exist`);
    const secrets: string[] = [...(manifest.capabilities?.secrets ?? [])].sort();
    const config = clientConfig(client, { name: manifest.server?.name ?? name, bundle: join(dir, "server.mjs"), cwd, node: process.execPath, secrets });
    process.stdout.write(JSON.stringify(config, null, 2) + "\n");
    process.stderr.write(`kervan: for ${CLIENTS[client].file}\n`);
    return 0;
  },
};
