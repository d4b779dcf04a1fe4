// `kervan deploy SERVER --target docker|kubernetes|nginx`: deployment artifacts for a generated server,
// from its manifest (name, version, the variables its tools read, the spec's auth).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST } from "../manifest.js";
import type { Manifest } from "../audit/types.js";
import { dockerfile } from "../deploy/docker.js";
import { kubernetesYaml } from "../deploy/kubernetes.js";
import { nginxConf } from "../deploy/nginx.js";
import type { DeployInput } from "../deploy/types.js";
import { UsageError } from "./sources.js";
import type { Command } from "./command.js";
import { record } from "./output.js";

type Options = Map<string, string | true>;


function intOption(options: Options, name: string, fallback: number, min: number): number {
  const raw = options.get(name);
  if (raw === undefined) return fallback;
  if (typeof raw !== "string" || !/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${name} needs an integer of at least ${min}`);
  return Number(raw);
}

function inputFor(server: string, m: Manifest, options: Options): DeployInput {
  const replicas = intOption(options, "--replicas", 3, 1);
  const port = intOption(options, "--port", 8080, 1);
  const caps = m.capabilities ?? { env: [] as string[], secrets: [] as string[] };
  const auth = (m.server.http as { auth?: { bearer?: { tokens: { env: string }[] } } } | undefined)?.auth;
  const upstreams = typeof options.get("--upstreams") === "string" ? (options.get("--upstreams") as string).split(",").map((u) => u.trim()).filter(Boolean) : Array.from({ length: replicas }, (_, i) => `${server}-${i}:${port}`);
  if (upstreams.some((u) => !/^[A-Za-z0-9.[\]:-]+:\d+$/.test(u))) throw new UsageError("--upstreams takes host:port,host:port,...");
  return {
    server,
    version: m.server.version,
    secrets: caps.secrets,
    env: caps.env.filter((e) => !caps.secrets.includes(e)),
    authSecrets: auth?.bearer?.tokens.map((t) => t.env) ?? [],
    replicas,
    port,
    drainMs: intOption(options, "--drain-ms", 10_000, 0),
    drainGraceMs: intOption(options, "--drain-grace-ms", 5_000, 0),
    image: typeof options.get("--image") === "string" ? (options.get("--image") as string) : `${server}:${m.server.version}`,
    upstreams,
  };
}

function deploy(positional: string[], options: Options): number {
  if (positional.length !== 1) throw new UsageError("deploy takes one server name");
  const [server] = positional;
  const target = options.get("--target");
  if (target !== "docker" && target !== "kubernetes" && target !== "nginx") throw new UsageError("deploy needs --target docker, kubernetes or nginx");
  const outDir = (options.get("--out") as string) ?? "out";
  const manifestPath = join(outDir, server, MANIFEST);
  if (!existsSync(manifestPath)) throw new UsageError(`no generated server ${server} under ${outDir} (run \`kervan gen\` first)`);
  const m = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  const d = inputFor(server, m, options);
  const dest = (options.get("--dest") as string) ?? join("deploy", server);
  mkdirSync(dest, { recursive: true });
  const [file, text] =
    target === "docker" ? ["Dockerfile", dockerfile(d)] : target === "kubernetes" ? ["kubernetes.yaml", kubernetesYaml(d)] : ["nginx.conf", nginxConf(d, (options.get("--listen") as string) ?? "8080")];
  writeFileSync(join(dest, file), text);
  record({ files: [join(dest, file)] });
  process.stdout.write(`kervan: wrote ${join(dest, file)}\n`);
  return 0;
}

export const deployCommand: Command = {
  name: "deploy",
  summary: "write deployment artifacts: a Dockerfile, Kubernetes manifests or an nginx upstream",
  usage: ["deploy SERVER --target docker|kubernetes|nginx [--out DIR] [--dest DIR] [--replicas N] [--port P] [--drain-ms MS] [--drain-grace-ms MS] [--image NAME] [--upstreams HOST:PORT,...] [--listen ADDR]"],
  details: "Writes DEST (default deploy/SERVER)/Dockerfile, kubernetes.yaml or nginx.conf from the server's manifest: the variables\nits tools read, its secrets as secret references, the spec's auth. See docs/deploy.md.",
  options: [
    { flag: "--target NAME", help: "docker, kubernetes or nginx" },
    { flag: "--out DIR", help: "output folder the server was generated into (default: out)" },
    { flag: "--dest DIR", help: "where to write the artifact (default: deploy/SERVER)" },
    { flag: "--replicas N", help: "replicas (default: 3)" },
    { flag: "--port P", help: "the port each replica serves HTTP on (default: 8080)" },
    { flag: "--drain-ms MS", help: "how long a replica drains on SIGTERM (default: 10000)" },
    { flag: "--drain-grace-ms MS", help: "extra grace on top of the drain (default: 5000)" },
    { flag: "--image NAME", help: "container image (default: SERVER:VERSION)" },
    { flag: "--upstreams HOST:PORT,...", help: "nginx: the replicas' addresses" },
    { flag: "--listen ADDR", help: "nginx: the address to listen on (default: 8080)" },
  ],
  examples: ["kervan deploy repo-explorer --target kubernetes --replicas 2"],
  run: (p) => deploy(p.positional, p.options),
};
