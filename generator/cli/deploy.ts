// `kervan deploy SERVER --target docker|kubernetes|nginx|compose`: deployment artifacts for a generated server,
// from its manifest (name, version, the variables its tools read, the spec's auth, sandbox, tasks, timeouts),
// and the commands that build and run them.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST } from "../manifest.js";
import type { Capabilities, Manifest } from "../audit/types.js";
import type { Json } from "../../templates/runtime/types.js";
import { isObject } from "../shared/object.js";
import { buildCommand, dockerfile, runCommand } from "../deploy/docker.js";
import { composeYaml } from "../deploy/compose.js";
import { kubernetesYaml } from "../deploy/kubernetes.js";
import { nginxConf } from "../deploy/nginx.js";
import { secretNames, type DeployAuth, type DeployInput } from "../deploy/types.js";
import { UsageError } from "./sources.js";
import { optionValue, type Command } from "./command.js";
import { record } from "./output.js";

type Options = Map<string, string | true>;

const TARGETS = ["docker", "kubernetes", "nginx", "compose"] as const;
type Target = (typeof TARGETS)[number];
const isTarget = (v: unknown): v is Target => TARGETS.some((t) => t === v);

const AUTHS: readonly DeployAuth[] = ["bearer", "oauth", "none-behind-proxy"];
const isDeployAuth = (v: unknown): v is DeployAuth => AUTHS.some((a) => a === v);

interface SpecAuth {
  bearer?: { tokens: { env: string }[] };
  oauth?: unknown;
}

const NO_CAPS: Pick<Capabilities, "env" | "secrets" | "commands"> = { env: [], secrets: [], commands: [] };

/** The spec's server.http.auth as the manifest records it. */
function specAuth(http: Json | undefined): SpecAuth | undefined {
  const auth = isObject(http) ? http.auth : undefined;
  if (!isObject(auth)) return undefined;
  const bearer = auth.bearer;
  const tokens = isObject(bearer) && Array.isArray(bearer.tokens) ? bearer.tokens.flatMap((t) => (isObject(t) && typeof t.env === "string" ? [{ env: t.env }] : [])) : undefined;
  return { ...(tokens ? { bearer: { tokens } } : {}), ...(auth.oauth ? { oauth: auth.oauth } : {}) };
}

/** A tool's timeout and sandbox mode, from its kind's config. */
function toolRun(config: unknown): { timeoutMs?: number; sandboxMode?: unknown } {
  if (!isObject<unknown>(config)) return {};
  const timeoutMs = typeof config.timeoutMs === "number" ? config.timeoutMs : undefined;
  return { timeoutMs, sandboxMode: isObject<unknown>(config.sandbox) ? config.sandbox.mode : undefined };
}


function intOption(options: Options, name: string, fallback: number, min: number): number {
  const raw = options.get(name);
  if (raw === undefined) return fallback;
  if (typeof raw !== "string" || !/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${name} needs an integer of at least ${min}`);
  return Number(raw);
}

function listOption(options: Options, name: string): string[] | undefined {
  const raw = options.get(name);
  if (raw === undefined) return undefined;
  if (typeof raw !== "string") throw new UsageError(`${name} needs a value`);
  return raw.split(",").map((u) => u.trim()).filter(Boolean);
}

const envName = (server: string) => server.toUpperCase().replace(/[^A-Z0-9]/g, "_") + "_TOKEN";

function authFor(server: string, spec: SpecAuth | undefined, options: Options, target: Target): Pick<DeployInput, "auth" | "authFromSpec" | "authSecrets" | "authEnv"> {
  const raw = options.get("--auth");
  const specMode: DeployAuth | undefined = spec?.bearer ? "bearer" : spec?.oauth ? "oauth" : undefined;
  // nginx's config starts no server: it needs no authorization mode.
  if (raw === undefined && specMode === undefined && target === "nginx") return { auth: "none-behind-proxy", authFromSpec: false, authSecrets: [], authEnv: [] };
  if (raw === undefined && specMode === undefined) {
    throw new UsageError(`${server} has no server.http.auth in its spec and serves 0.0.0.0 in a container: choose with --auth bearer, --auth oauth or --auth none-behind-proxy`);
  }
  const auth = raw === undefined ? specMode : isDeployAuth(raw) ? raw : undefined;
  if (auth === undefined) throw new UsageError("--auth takes bearer, oauth or none-behind-proxy");
  const fromSpec = auth === specMode && options.get("--bearer-env") === undefined;
  const specTokens = spec?.bearer?.tokens.map((t) => t.env) ?? [];
  const authSecrets = auth === "bearer" ? (listOption(options, "--bearer-env") ?? (specTokens.length ? specTokens : [envName(server)])) : [];
  if (authSecrets.some((e) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(e))) throw new UsageError("--bearer-env takes environment variable names");
  const authEnv = auth === "oauth" && !spec?.oauth ? ["KERVAN_OAUTH_ISSUER", "KERVAN_OAUTH_JWKS_URL", "KERVAN_OAUTH_RESOURCE"] : [];
  return { auth, authFromSpec: fromSpec, authSecrets, authEnv };
}

function inputFor(server: string, m: Manifest, options: Options, target: Target): DeployInput {
  const replicas = intOption(options, "--replicas", 3, 1);
  const port = intOption(options, "--port", 8080, 1);
  const caps = m.capabilities ?? NO_CAPS;
  const tools = m.tools.map((t) => ({ ...toolRun(t.config), confirms: t.confirm !== undefined || t.ask !== undefined }));
  const upstreams = listOption(options, "--upstreams") ?? [`${server}:${port}`];
  if (upstreams.some((u) => !/^[A-Za-z0-9.[\]:-]+:\d+$/.test(u))) throw new UsageError("--upstreams takes host:port,host:port,...");
  const taskStore = m.server.tasks?.store;
  const many = (target === "kubernetes" || target === "compose") ? replicas > 1 : target === "nginx" && (upstreams.length > 1 || replicas > 1);
  if (many && (taskStore === "memory" || taskStore === "file")) {
    throw new UsageError(
      `${server} keeps its tasks in ${taskStore === "memory" ? "process memory" : "a local folder"}: a task created on one replica is not found on the next. Set server.tasks.store: redis in the spec and run \`kervan gen\`, or deploy one replica (--replicas 1)`,
    );
  }
  const listen = optionValue(options, "--listen") ?? "8080";
  if (!/^(\d{1,5}|[A-Za-z0-9.[\]:-]+:\d{1,5})$/.test(listen)) throw new UsageError("--listen takes PORT or ADDRESS:PORT");
  return {
    server,
    version: m.server.version,
    secrets: caps.secrets,
    env: caps.env.filter((e) => !caps.secrets.includes(e) && e !== "PATH"),
    ...authFor(server, specAuth(m.server.http), options, target),
    sandboxed: tools.some((t) => t.sandboxMode === "bubblewrap"),
    ...(m.bundle?.chunks ? { chunks: true } : {}),
    commands: caps.commands ?? [],
    taskStore,
    confirms: tools.some((t) => t.confirms),
    longestToolMs: Math.max(0, ...tools.map((t) => t.timeoutMs ?? 0)),
    allowedHosts: [...new Set([server, ...(listOption(options, "--public-host") ?? [])])],
    replicas,
    port,
    drainMs: intOption(options, "--drain-ms", 10_000, 0),
    drainGraceMs: intOption(options, "--drain-grace-ms", 5_000, 0),
    image: optionValue(options, "--image") ?? `${server}:${m.server.version}`,
    upstreams,
    listen,
  };
}

function artifacts(target: Target, d: DeployInput, dest: string, outDir: string): [string, string][] {
  if (target === "docker") return [["Dockerfile", dockerfile(d, dest, outDir)]];
  if (target === "kubernetes") return [["kubernetes.yaml", kubernetesYaml(d)]];
  if (target === "nginx") return [["nginx.conf", nginxConf(d)]];
  return [["Dockerfile", dockerfile(d, dest, outDir)], ["nginx.conf", nginxConf(d)], ["compose.yaml", composeYaml(d, dest, outDir)]];
}

/** The commands that build and run what was written, one per line. */
function nextSteps(target: Target, d: DeployInput, dest: string, outDir: string): string[] {
  const secrets = secretNames(d);
  const exportLine = secrets.length ? [`export ${secrets.map((s) => `${s}=...`).join(" ")}`] : [];
  if (target === "docker") return [buildCommand(d, dest, outDir, "docker"), ...exportLine, runCommand(d, "docker")];
  if (target === "kubernetes") {
    return [
      buildCommand(d, `deploy/${d.server}`, outDir, "docker") + `   # after kervan deploy ${d.server} --target docker`,
      ...(secrets.length ? [`kubectl create secret generic ${d.server}-secrets ${secrets.map((k) => `--from-literal=${k}=...`).join(" ")}`] : []),
      `kubectl apply -f ${dest}/kubernetes.yaml`,
    ];
  }
  if (target === "nginx") return [`include ${dest}/nginx.conf in nginx's http { } block, then: nginx -t && nginx -s reload`];
  return [...exportLine, `docker compose -f ${dest}/compose.yaml up --build -d`, `curl http://127.0.0.1:${d.listen}/readyz`];
}

function deploy(positional: string[], options: Options): number {
  if (positional.length !== 1) throw new UsageError("deploy takes one server name");
  const [server] = positional;
  const target = options.get("--target");
  if (!isTarget(target)) throw new UsageError("deploy needs --target docker, kubernetes, nginx or compose");
  const outDir = optionValue(options, "--out") ?? "out";
  const manifestPath = join(outDir, server, MANIFEST);
  if (!existsSync(manifestPath)) throw new UsageError(`no generated server ${server} under ${outDir} (run \`kervan gen\` first)`);
  const m: Manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  const d = inputFor(server, m, options, target);
  const dest = optionValue(options, "--dest") ?? join("deploy", server);
  mkdirSync(dest, { recursive: true });
  const lines: string[] = [];
  for (const [file, text] of artifacts(target, d, dest, outDir)) {
    writeFileSync(join(dest, file), text);
    lines.push(`kervan: wrote ${join(dest, file)}`);
  }
  record({ files: lines.map((l) => l.slice("kervan: wrote ".length)) });
  lines.push("next:", ...nextSteps(target, d, dest, outDir).map((c) => `  ${c}`));
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

export const deployCommand: Command = {
  name: "deploy",
  summary: "write deployment artifacts: a Dockerfile, Kubernetes manifests, an nginx upstream or a compose file",
  usage: [
    "deploy SERVER --target docker|kubernetes|nginx|compose [--auth bearer|oauth|none-behind-proxy] [--bearer-env NAME,...] [--out DIR] [--dest DIR] [--replicas N] [--port P] [--drain-ms MS] [--drain-grace-ms MS] [--image NAME] [--upstreams HOST:PORT,...] [--listen ADDR] [--public-host NAME,...]",
  ],
  details:
    "Writes DEST (default deploy/SERVER)/Dockerfile, kubernetes.yaml, nginx.conf or compose.yaml (with its Dockerfile and nginx.conf)\nfrom the server's manifest: its authorization, its secrets as references, bubblewrap and the programs its exec tools run,\nthe longest tool timeout; then prints the commands to build and run them. See docs/deploy.md.",
  options: [
    { flag: "--target NAME", help: "docker, kubernetes, nginx or compose" },
    { flag: "--auth MODE", help: "bearer, oauth or none-behind-proxy (default: the spec's server.http.auth)" },
    { flag: "--bearer-env NAME,...", help: "with --auth bearer: the variables holding the tokens (default: the spec's, or SERVER_TOKEN)" },
    { flag: "--out DIR", help: "output folder the server was generated into (default: out)" },
    { flag: "--dest DIR", help: "where to write the artifacts (default: deploy/SERVER)" },
    { flag: "--replicas N", help: "replicas (default: 3)" },
    { flag: "--port P", help: "the port each replica serves HTTP on (default: 8080)" },
    { flag: "--drain-ms MS", help: "how long a replica drains on SIGTERM (default: 10000)" },
    { flag: "--drain-grace-ms MS", help: "extra grace on top of the drain (default: 5000)" },
    { flag: "--image NAME", help: "container image (default: SERVER:VERSION)" },
    { flag: "--upstreams HOST:PORT,...", help: "nginx: the replicas' addresses (default: SERVER:PORT, the service name)" },
    { flag: "--listen ADDR", help: "nginx: the address to listen on (default: 8080)" },
    { flag: "--public-host NAME,...", help: "host names clients reach the server by, added to its allow-list (SERVER always is)" },
  ],
  examples: ["kervan deploy repo-explorer --target kubernetes --replicas 2 --auth bearer", "kervan deploy validator --target compose --auth none-behind-proxy"],
  run: (p) => deploy(p.positional, p.options),
};
