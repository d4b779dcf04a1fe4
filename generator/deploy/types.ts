// What `kervan deploy` knows about one generated server, read from its manifest, plus deploy options.

/** How the deployed server authorizes requests: the spec's mode, or one chosen at deploy time. */
export type DeployAuth = "bearer" | "oauth" | "none-behind-proxy";

export interface DeployInput {
  server: string;
  version: string;
  /** Environment variables the tools read that are secrets (Kubernetes Secret references). */
  secrets: string[];
  /** Other environment variables the tools read (left for the operator to set). */
  env: string[];
  auth: DeployAuth;
  /** Whether the auth mode comes from the spec (true) or from `--auth` (flags are passed). */
  authFromSpec: boolean;
  /** Bearer token variables (secrets too). */
  authSecrets: string[];
  /** Deploy-time OAuth settings the operator provides as environment (not secrets). */
  authEnv: string[];
  /** Whether some exec tool runs under bubblewrap. */
  sandboxed: boolean;
  /** Whether the bundle has chunk files beside it (a catalog's operations, loaded on first use). */
  chunks?: boolean;
  /** Programs the exec tools run (the manifest's capabilities.commands). */
  commands: string[];
  /** Where tasks live (undefined: the server keeps none). */
  taskStore?: "memory" | "file" | "redis";
  /** Whether the server seals confirmation state (tools with confirm/ask): replicas need one KERVAN_STATE_KEY. */
  confirms: boolean;
  /** The longest tool timeout, milliseconds. */
  longestToolMs: number;
  /** Host names clients and the proxy reach the server by (the DNS-rebinding allow-list). */
  allowedHosts: string[];
  replicas: number;
  port: number;
  drainMs: number;
  /** Time the listener stays open after SIGTERM so endpoints see /readyz 503 first. */
  drainGraceMs: number;
  image: string;
  /** nginx: host:port of each replica. */
  upstreams: string[];
  /** nginx: the address it listens on. */
  listen: string;
}

/** The secrets the deployment references: the tools', the bearer tokens', the state key and the task store's URL. */
export function secretNames(d: DeployInput): string[] {
  const state = stateSecrets(d);
  return [...new Set([...d.secrets, ...d.authSecrets, ...state])].sort();
}

/** KERVAN_STATE_KEY when state must be shared, KERVAN_TASKS_REDIS_URL when tasks live in Redis. */
export function stateSecrets(d: DeployInput): string[] {
  const out: string[] = [];
  if (d.confirms || d.taskStore !== undefined) out.push("KERVAN_STATE_KEY");
  if (d.taskStore === "redis") out.push("KERVAN_TASKS_REDIS_URL");
  return out;
}

/** The server's own flags: listen, auth (when chosen at deploy time), host allow-list, drain. */
export function serverArgs(d: DeployInput): string[] {
  const args = ["--http", String(d.port), "--host", "0.0.0.0"];
  if (!d.authFromSpec) {
    if (d.auth === "bearer") args.push("--auth", "bearer", "--bearer-env", d.authSecrets.join(","));
    else if (d.auth === "oauth") args.push("--auth", "oauth");
    else args.push("--auth", "none", "--insecure-no-auth");
  }
  if (d.allowedHosts.length) args.push("--allowed-hosts", d.allowedHosts.join(","));
  args.push("--drain-ms", String(d.drainMs), "--drain-grace-ms", String(d.drainGraceMs));
  return args;
}

/** nginx's read timeout: the longest tool call plus the drain, in seconds, at least 60. */
export function readTimeoutSeconds(d: DeployInput): number {
  return Math.max(60, Math.ceil((d.longestToolMs + d.drainMs) / 1000) + 5);
}

/** The upstream name every artifact uses for the replicas: the Service, the compose service, nginx's upstream. */
export const serviceName = (d: DeployInput): string => d.server;
