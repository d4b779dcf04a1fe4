// Filesystem policy for path fields. Resolution follows the kernel, not the string: symlinks are
// resolved component by component *before* a following `..` is applied (so `link/../x` means
// "the parent of link's target", as open(2) sees it), dangling symlinks are followed to where a
// write would land, and only the part that does not exist yet is taken literally.
import { lstatSync, readlinkSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";

export class PathError extends Error {}

const MAX_LINKS = 40; // Linux's own limit before ELOOP

/** `value` resolved against the real directory `base`, symlinks followed. Throws PathError. */
export function resolveReal(value: string, base: string): string {
  let cur = isAbsolute(value) ? "/" : base;
  const pending = value.split("/");
  let links = 0;
  let missing = false; // once a component is missing, the rest cannot be links
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, part);
    if (missing) {
      cur = next;
      continue;
    }
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw new PathError(`cannot resolve: ${code ?? String(err)}`);
      missing = true;
      cur = next;
      continue;
    }
    if (!isLink) {
      cur = next;
      continue;
    }
    if (++links > MAX_LINKS) throw new PathError("too many levels of symbolic links");
    const target = readlinkSync(next);
    if (isAbsolute(target)) cur = "/";
    pending.unshift(...target.split("/"));
  }
  return cur;
}

/** Whether `target` is `root` or lies below it (both already resolved). */
export function within(root: string, target: string): boolean {
  if (target === root) return true;
  return target.startsWith(root.endsWith("/") ? root : root + "/");
}

export interface PathPolicy {
  fields: string[];
  allow: string[];
  deny: string[];
  cwd: string;
}

/** Checks one decoded path value; throws PathError with the rule it broke. */
export function checkPath(policy: PathPolicy, field: string, value: string): void {
  const name = `field "${field}"`;
  if (value.startsWith("-")) {
    throw new PathError(`${name} starts with "-" and would be read as an option; write ./${value} to mean a file`);
  }
  let target: string;
  try {
    target = resolveReal(value, policy.cwd);
  } catch (err) {
    throw new PathError(`${name}: ${(err as Error).message}`);
  }
  const denied = policy.deny.find((d) => within(d, target));
  if (denied !== undefined) throw new PathError(`${name} resolves to ${target}, inside the denied path ${denied}`);
  if (!policy.allow.some((root) => within(root, target))) {
    throw new PathError(`${name} resolves to ${target}, outside the allowed roots (${policy.allow.join(", ")})`);
  }
}
