// The http kind's start-up check and the environment it reads (origin override, secrets, proxy), in a
// module of its own: a catalog server runs the check at start without loading the handler's code.
import { StartupError } from "../../runtime/types.js";
import type { HttpToolConfig } from "./config.js";
import { proxySettings } from "./proxy.js";
import { makeRedactor, type Redactor } from "./redact.js";

/** What the environment decides, once, at startup. */
export interface Resolved {
  origin: string;
  basePath: string;
  secrets: Map<string, string>;
  redactor: Redactor;
}

export type Env = Record<string, string | undefined>;

/** What the start-up check reads of a config (a catalog that loads its operations later passes just this). */
export type HttpStartupConfig = Pick<HttpToolConfig, "tool" | "origin" | "originEnv" | "basePath" | "secrets">;

/** Reads the override and the secrets; problems are sentences that never contain a secret. */
export function resolveHttpEnv(cfg: HttpStartupConfig, env: Env): { resolved?: Resolved; problems: string[] } {
  const problems: string[] = [];
  let origin = new URL(cfg.origin).origin;
  let basePath = cfg.basePath;
  const override = cfg.originEnv ? env[cfg.originEnv] : undefined;
  if (cfg.originEnv && override) {
    // The value is not quoted: a mistaken override may carry credentials.
    const bad = `${cfg.originEnv} must be an absolute http(s) URL without credentials, query or fragment`;
    let u: URL | undefined;
    try {
      u = new URL(override);
    } catch {
      problems.push(bad);
    }
    if (u) {
      if ((u.protocol !== "http:" && u.protocol !== "https:") || u.username || u.password || /[?#]/.test(override)) {
        problems.push(bad);
      } else {
        origin = u.origin;
        basePath = u.pathname.replace(/\/+$/, "");
      }
    }
  }
  const secrets = new Map<string, string>();
  for (const s of cfg.secrets) {
    const v = env[s.env];
    if (v !== undefined && v !== "") secrets.set(s.name, v);
    else if (s.required) problems.push(`secret ${s.name} needs the environment variable ${s.env}, which is not set`);
  }
  if (problems.length) return { problems };
  return { resolved: { origin, basePath, secrets, redactor: makeRedactor(secrets.values()) }, problems };
}

/** Run before serving: a missing required secret or a bad override stops the server with one line. */
export function checkHttpStartup(cfgs: HttpStartupConfig[], env: Env = process.env): void {
  // The proxy settings are the server's, not one tool's: said once, unprefixed.
  const lines = new Set<string>(proxySettings(env).problems);
  for (const cfg of cfgs) for (const p of resolveHttpEnv(cfg, env).problems) lines.add(`tool ${cfg.tool}: ${p}`);
  if (lines.size) throw new StartupError(`http tools are not configured: ${[...lines].join("; ")}`);
}
