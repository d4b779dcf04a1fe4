// What a server with sandboxed exec tools needs from its container runtime, said once for every artifact.
// bubblewrap, run by the image's unprivileged user, creates a user namespace and the others inside it,
// and mounts a fresh /proc for the tool. Measured with podman 4.3 and runc (docs/deploy.md): the
// default seccomp profile allows that, no capability is needed, but the runtime's masks over parts
// of /proc make the kernel refuse the new /proc ("Can't mount proc on /newroot/proc: Operation not
// permitted") until they are lifted.
import type { DeployInput } from "./types.js";

/** `podman run` options a sandboxed server needs (measured). */
export const PODMAN_SANDBOX_OPTS = ["--security-opt", "unmask=/proc/*"];

/** `docker run` options: Docker's default seccomp profile refuses unprivileged user namespaces and its AppArmor profile refuses mounts. */
export const DOCKER_SANDBOX_OPTS = ["--security-opt", "systempaths=unconfined", "--security-opt", "seccomp=unconfined", "--security-opt", "apparmor=unconfined"];

/** Debian packages for the programs exec tools commonly run; node:20-bookworm-slim already has coreutils, grep, sed, findutils, tar, gzip, node, npm. */
const PACKAGES: Record<string, string> = { git: "git", jq: "jq", curl: "curl", wget: "wget", python3: "python3", rg: "ripgrep", make: "make", zip: "zip", unzip: "unzip", file: "file", less: "less", diff: "diffutils", xz: "xz-utils", bzip2: "bzip2", patch: "patch" };
const IN_IMAGE = new Set(["cat", "ls", "wc", "head", "tail", "sort", "uniq", "cut", "tr", "echo", "printf", "sleep", "date", "env", "true", "false", "du", "df", "stat", "basename", "dirname", "realpath", "readlink", "test", "grep", "egrep", "fgrep", "sed", "find", "xargs", "tar", "gzip", "gunzip", "sh", "bash", "dash", "node", "npm", "npx", "sha256sum", "md5sum", "base64", "id", "uname", "mkdir", "cp", "mv", "rm", "touch", "ln", "chmod", "tee", "nl", "od", "seq", "timeout", "prlimit"]);

export interface ImageNeeds {
  packages: string[];
  /** Commands kervan knows no package for: the operator installs them. */
  unknown: string[];
}

export function imageNeeds(d: DeployInput): ImageNeeds {
  const packages = new Set<string>(d.sandboxed ? ["bubblewrap"] : []);
  const unknown: string[] = [];
  for (const c of d.commands) {
    const base = c.split("/").pop()!;
    if (PACKAGES[base]) packages.add(PACKAGES[base]);
    else if (!IN_IMAGE.has(base)) unknown.push(c);
  }
  return { packages: [...packages].sort(), unknown: unknown.sort() };
}

/** One line for comments and docs: what the deployment relies on for the sandbox. */
export function sandboxNeedsLine(): string {
  return "bubblewrap needs unprivileged user namespaces and an unmasked /proc inside the container";
}
