// podman (Debian's, with runc) for npm run deploy-check, and the images no registry can give here: a
// node:20-bookworm-slim made with debootstrap and the host's node, and nginx and Redis images built from it
// with apt. The images are the cache: each carries a label with the key it was built from, and a rerun
// with the same key reuses it (DEPLOY_CHECK_FRESH=1 rebuilds; CI starts with none).
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const NODE_BASE = "docker.io/library/node:20-bookworm-slim";
export const NGINX_IMAGE = "docker.io/library/nginx:1.22-bookworm";
export const REDIS_IMAGE = "docker.io/library/redis:7-bookworm";

const CONF_DIR = mkdtempSync(join(tmpdir(), "kervan-podman-conf-"));
const CONF = join(CONF_DIR, "containers.conf");
// crun fails on this kernel's cgroup layout; the default ulimits are above the machine's hard limits.
writeFileSync(CONF, '[containers]\ndefault_ulimits = ["nofile=1000:1000", "nproc=1000:1000"]\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n');
export const PODMAN_ENV = { ...process.env, CONTAINERS_CONF: CONF };

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function podman(args: string[], opts: SpawnSyncOptions = {}): Run {
  const r = spawnSync("podman", args, { encoding: "utf8", env: PODMAN_ENV, maxBuffer: 64 << 20, ...opts });
  return { status: r.status, stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? "") + (r.error ? String(r.error) : "") };
}

export function must(args: string[], opts: SpawnSyncOptions = {}): string {
  const r = podman(args, opts);
  if (r.status !== 0) throw new Error(`podman ${args.join(" ")} failed (${r.status}):\n${r.stderr.slice(-4000)}`);
  return r.stdout.trim();
}

function label(image: string): string | undefined {
  const r = podman(["image", "inspect", "--format", '{{ index .Labels "kervan.key" }}', image]);
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export function imageSize(image: string): number {
  return Number(must(["image", "inspect", "--format", "{{.Size}}", image]));
}

const fresh = process.env.DEPLOY_CHECK_FRESH === "1";

/** node:20-bookworm-slim from Debian's packages (debootstrap --variant=minbase) plus the host's node, with user node (1000). */
export function ensureNodeBase(say: (s: string) => void): void {
  const node = readFileSync(process.execPath);
  const key = createHash("sha256").update("bookworm-minbase-1\n").update(node).digest("hex").slice(0, 16);
  if (!fresh && label(NODE_BASE) === key) return say(`base ${NODE_BASE}: cached (${key})`);
  const root = mkdtempSync(join("/var/tmp", "kervan-rootfs-"));
  try {
    const t0 = performance.now();
    const boot = spawnSync("debootstrap", ["--variant=minbase", "bookworm", root, "http://deb.debian.org/debian"], { encoding: "utf8", maxBuffer: 64 << 20 });
    if (boot.status !== 0) throw new Error(`debootstrap failed: ${(boot.stderr || boot.stdout).slice(-2000)}`);
    writeFileSync(join(root, "usr/local/bin/node"), node, { mode: 0o755 });
    const user = spawnSync("chroot", [root, "sh", "-c", "groupadd -g 1000 node && useradd -u 1000 -g 1000 -m -s /bin/sh node && apt-get clean"], { encoding: "utf8" });
    if (user.status !== 0) throw new Error(`adding user node failed: ${user.stderr}`);
    const tar = spawnSync("sh", ["-c", `tar -C '${root}' -c . | podman import --change 'CMD ["node"]' --change 'LABEL kervan.key=${key}' - ${NODE_BASE}`], { encoding: "utf8", env: PODMAN_ENV, maxBuffer: 64 << 20 });
    if (tar.status !== 0) throw new Error(`podman import failed: ${tar.stderr}`);
    say(`base ${NODE_BASE}: built with debootstrap in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** nginx and Redis from Debian's packages on the same base, tagged as the names the compose file uses. */
export function ensureServiceImages(say: (s: string) => void): void {
  const key = (label(NODE_BASE) ?? "") + "-services-1";
  if (!fresh && label(NGINX_IMAGE) === key && label(REDIS_IMAGE) === key) return say("nginx and redis images: cached");
  const dir = mkdtempSync(join(tmpdir(), "kervan-services-"));
  writeFileSync(
    join(dir, "Dockerfile"),
    [
      `FROM ${NODE_BASE}`,
      "RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx-light redis-server && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/*",
      `LABEL kervan.key=${key}`,
      'CMD ["nginx", "-g", "daemon off;"]',
      "",
    ].join("\n"),
  );
  const t0 = performance.now();
  must(["build", "--pull=never", "-t", NGINX_IMAGE, "-t", REDIS_IMAGE, dir]);
  say(`nginx and redis images: built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  rmSync(dir, { recursive: true, force: true });
}

export function removeContainer(name: string): void {
  podman(["rm", "-f", "-t", "2", name]);
}

export function ensureDir(p: string): string {
  if (!existsSync(p)) mkdirSync(p, { recursive: true });
  return p;
}
