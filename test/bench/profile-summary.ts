// Reads V8 CPU profiles (.cpuprofile, as `node --cpu-prof` or node:inspector write them) and sums the
// self time of each function across them: the top entries, and the same grouped by source file.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTimes {
  /** µs of self time per "function file:line". */
  byFunction: Map<string, number>;
  /** µs of self time per source file (node: built-ins under their module name). */
  byFile: Map<string, number>;
  /** µs sampled, idle excluded. */
  busy: number;
}

const IDLE = new Set(["(idle)", "(program)"]);

function fileOf(url: string): string {
  if (!url) return "(native)";
  return url.startsWith("node:") ? url : basename(url.replace(/^file:\/\//, ""));
}

function add(map: Map<string, number>, key: string, us: number): void {
  map.set(key, (map.get(key) ?? 0) + us);
}

/** Sums self time over profiles; `(program)` (V8 outside JS, mostly start-up) is kept apart from idle. */
export function selfTimes(profiles: CpuProfile[]): SelfTimes {
  const out: SelfTimes = { byFunction: new Map(), byFile: new Map(), busy: 0 };
  for (const p of profiles) {
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    for (let i = 0; i < p.samples.length; i++) {
      const node = byId.get(p.samples[i]!)!;
      const us = p.timeDeltas[i + 1] ?? 0; // a sample's time runs until the next one
      const { functionName, url, lineNumber } = node.callFrame;
      if (functionName === "(idle)") continue;
      out.busy += us;
      const file = fileOf(url);
      add(out.byFunction, IDLE.has(functionName) || !url ? functionName || "(anonymous)" : `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`, us);
      add(out.byFile, IDLE.has(functionName) ? functionName : file, us);
    }
  }
  return out;
}

export function readProfiles(dir: string): CpuProfile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as CpuProfile);
}

const fmt = (us: number) => (us >= 10_000 ? `${(us / 1000).toFixed(1)} ms` : us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`);

/**
 * The top `n` entries as markdown rows: self time per operation (`per` operations over all profiles)
 * and that time as a share of `gapUs` (the gap to the floor per operation), when given.
 */
export function topRows(map: Map<string, number>, per: number, n: number, whole: number, floor?: Map<string, number>): string[] {
  const less = (name: string, us: number) => us - (floor?.get(name) ?? 0);
  const rows = [...map.entries()].map(([name, us]) => [name, less(name, us)] as [string, number]).sort((a, b) => b[1] - a[1]).slice(0, n);
  return rows.map(([name, us]) => {
    const each = us / per;
    const share = ` | ${((100 * each) / whole).toFixed(0)}%`;
    return `| ${name.replace(/\|/g, "\\|")} | ${fmt(each)}${share} |`;
  });
}

/** With `floor` (the floor's profile over as many operations), each entry is its self time less the floor's. */
export function report(title: string, t: SelfTimes, per: number, unit: string, gapUs?: number, n = 12, floor?: SelfTimes): string {
  const more = floor ? " more than the floor" : "";
  // Shares are of the gap where a floor profile is subtracted, else of the sampled busy time.
  const col = floor && gapUs ? "of the gap" : "of busy";
  const whole = floor && gapUs ? gapUs : t.busy / per;
  const head = `| function (self time) | per ${unit} | ${col} |\n|---|---|---|`;
  const fileHead = `| file | per ${unit} | ${col} |\n|---|---|---|`;
  return [
    `### ${title}`,
    `busy (sampled, idle excluded): ${fmt(t.busy / per)} per ${unit}${gapUs !== undefined ? `; gap to the floor: ${fmt(gapUs)} per ${unit}` : ""}`,
    "",
    floor ? `self time${more} (the floor's profile subtracted), per ${unit}; the floor's sampled busy time: ${fmt(floor.busy / per)}. The profiler inflates small units: read the shares more than the µs` : "",
    "",
    head,
    ...topRows(t.byFunction, per, n, whole, floor?.byFunction),
    "",
    fileHead,
    ...topRows(t.byFile, per, 8, whole, floor?.byFile),
    "",
  ].join("\n");
}
