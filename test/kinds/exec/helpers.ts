// Shared pieces for the exec runtime tests: fixture paths, a call context, process liveness.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CallContext } from "../../../templates/runtime/types.js";
import type { ExecToolConfig } from "../../../templates/kinds/exec/index.js";

export const NODE = process.execPath;
export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
export const fixture = (name: string) => FIXTURES + name;

export function ctx(signal: AbortSignal = new AbortController().signal): CallContext {
  return { signal, era: "2026-07-28" };
}

/** A config running `node argv.mjs <templates...>` with every placeholder a string unless typed. */
export function argvTool(templates: (string | { field: string })[][], fields: ExecToolConfig["fields"]): ExecToolConfig {
  return { tool: "t", argv: [[NODE], [fixture("argv.mjs")], ...templates], fields };
}

/** Alive and not a zombie (an orphan may wait to be reaped by a PID 1 that never reaps). */
export function alive(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  try {
    const text = readFileSync(stat, "utf8");
    return text.slice(text.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

export async function waitDead(pid: number, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
