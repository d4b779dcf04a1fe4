// Host-side observations for the sandbox tests: processes by a marker in their argv, a tree's
// contents, bounded waits on a condition, and the bubblewrap requirement.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Fails (never skips) when bwrap is missing, naming the package to install. */
export function requireBubblewrap(): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter).concat(["/usr/bin"])) {
    const p = join(dir, "bwrap");
    if (dir && existsSync(p) && statSync(p).isFile()) return p;
  }
  throw new Error("bwrap is not installed: the sandbox tests need the Debian package bubblewrap (apt-get install bubblewrap; .ci/run installs it)");
}

/** Host pids of processes whose argv contains `marker` as a whole argument, or as a substring. */
export function markerPids(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") continue; // a zombie runs nothing
    } catch {
      continue;
    }
    if (argv.some((a) => a === marker || a.includes(marker))) pids.push(Number(name));
  }
  return pids;
}

/** Polls `cond` every 25 ms until it holds or `ms` pass; the result of the last check. */
export async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return cond();
}

/** Every path under `root` (except `skip`) with its content or link target, as one string. */
export function snapshot(root: string, skip: string): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (p === skip) continue;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out.push(`${p} -> ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.push(`${p}/`);
        walk(p);
      } else out.push(`${p}: ${readFileSync(p, "utf8")}`);
    }
  };
  walk(root);
  return out.join("\n");
}
