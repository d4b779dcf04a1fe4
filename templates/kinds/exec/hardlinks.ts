// Hard links to denied files. Masking works on names: bwrap covers `.env` with an empty file, but a
// second name for the same inode (`ln .env x`) under a visible root would still show its content.
// So the inodes of denied files with more than one link are collected (a denied file itself, or
// any file inside a denied directory), and every other name for them under the visible roots is
// masked as well. The scan runs at a tool's first sandboxed call, once per set of roots, and again
// only when a call sees a denied file's links change. Its cost: a walk of the denied directories
// (a `.git`) and, only when one of them holds a file with several links (a clone made with
// `git clone --local` shares its objects that way), a walk of the visible roots. Otherwise each call
// pays nothing beyond the one lstat per denied path it does anyway to mask it. Limitation: a new
// link to a file inside a denied directory is seen at the next scan (the next start, or the next
// change to a denied file's links), not at the next call.
import { lstatSync, readdirSync, type Stats } from "node:fs";
import { join } from "node:path";
import { within } from "./paths.js";

export interface LinkState {
  /** dev:ino of each denied inode with other names: a denied path holding it, and its link count. */
  denied: Map<string, { path: string; nlink: number }>;
  /** Denied paths that existed when this state was computed (a new one means a new scan). */
  existed: Set<string>;
  /** Other names of those inodes under the visible roots: masked like the denied paths. */
  aliases: string[];
}

const key = (st: Stats) => `${st.dev}:${st.ino}`;

function lstatQuiet(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Calls `visit` for every entry under `dir` (symlinks not followed, only devices in `devs` when given), except inside `skip`. */
function walk(dir: string, skip: string[], visit: (path: string, st: Stats) => void, devs?: Set<number>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // unreadable or gone
  }
  for (const name of names) {
    const p = join(dir, name);
    if (skip.some((s) => within(s, p))) continue;
    const st = lstatQuiet(p);
    if (!st) continue;
    visit(p, st);
    if (st.isDirectory() && (!devs || devs.has(st.dev))) walk(p, skip, visit, devs);
  }
}

/** The startup scan (and the rescan when a call sees something changed). */
export function scanLinks(visible: string[], masked: string[]): LinkState {
  const denied: LinkState["denied"] = new Map();
  const existed = new Set<string>();
  const note = (p: string, st: Stats) => {
    if (st.isFile() && st.nlink > 1) denied.set(key(st), { path: p, nlink: st.nlink });
  };
  for (const m of masked) {
    const st = lstatQuiet(m);
    if (!st) continue;
    existed.add(m);
    note(m, st);
    if (st.isDirectory()) walk(m, [], note);
  }
  const found = new Set<string>();
  if (denied.size > 0) {
    // A hard link never crosses a filesystem: only devices holding a denied inode are walked.
    const devs = new Set([...denied.keys()].map((k) => Number(k.split(":")[0])));
    for (const root of visible) {
      const st = lstatQuiet(root);
      if (!st || !devs.has(st.dev)) continue;
      walk(root, masked, (p, s) => s.isFile() && s.nlink > 1 && denied.has(key(s)) && found.add(p), devs);
    }
  }
  return { denied, existed, aliases: [...found].sort() };
}

/**
 * Per call, from the call's lstat of each denied path: whether a new name may exist. A denied file
 * whose link count changed, a denied inode that lost or gained a name, or a denied path that did
 * not exist at the last scan (a directory may hold linked files) all mean: scan again.
 */
export function linksStale(state: LinkState, stats: Map<string, Stats | undefined>): boolean {
  for (const [path, st] of stats) {
    if (!st) continue;
    if (!state.existed.has(path)) return true;
    if (st.isFile() && st.nlink > 1 && state.denied.get(key(st))?.nlink !== st.nlink) return true;
  }
  for (const [k, d] of state.denied) {
    const st = stats.has(d.path) ? stats.get(d.path) : lstatQuiet(d.path);
    if (!st || key(st) !== k || st.nlink !== d.nlink) return true;
  }
  return false;
}

// One scan per set of roots, shared by the tools that have the same ones.
const STATES = new Map<string, LinkState>();

/** The link state for these roots, scanned now if there is none yet or the call's lstats say it is stale. */
export function currentLinks(visible: string[], masked: string[], stats: Map<string, Stats | undefined>): LinkState {
  const k = JSON.stringify([visible, masked]);
  let state = STATES.get(k);
  if (!state || linksStale(state, stats)) {
    state = scanLinks(visible, masked);
    STATES.set(k, state);
  }
  return state;
}
