// Progress heartbeats: a caller that asked for progress hears from a running command at the
// configured interval, with increasing values; one that did not ask hears nothing.
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExecHandler, type ExecToolConfig } from "../../../templates/kinds/exec/index.js";

const cfg = (progressIntervalMs: number): ExecToolConfig => ({ tool: "nap", argv: [["sleep"], ["0.4"]], fields: {}, progressIntervalMs });
const ctx = (progress?: (p: number, t?: number, m?: string) => void) => ({ signal: new AbortController().signal, era: "2026-07-28" as const, ...(progress ? { progress } : {}) });

describe("exec progress", () => {
  it("reports start, heartbeats and finish with increasing progress", async () => {
    // The command runs until the test has seen two heartbeats (it waits for a file the test creates),
    // so the count does not depend on how fast a loaded machine runs timers.
    const flag = join(mkdtempSync(join(tmpdir(), "kervan-progress-")), "go");
    const waiter: ExecToolConfig = { tool: "nap", argv: [["sh"], ["-c"], ['while [ ! -e "$0" ]; do sleep 0.02; done'], [flag]], fields: {}, progressIntervalMs: 50 };
    const seen: [number, string | undefined][] = [];
    const out = await createExecHandler(waiter, { onShutdown: () => {} })({}, ctx((p, _t, m) => {
      seen.push([p, m]);
      if (seen.length === 3) writeFileSync(flag, ""); // start and two heartbeats
    }));
    expect(out.isError).toBeFalsy();
    expect(seen.length).toBeGreaterThanOrEqual(4); // start, >= 2 heartbeats, finish
    expect(seen[0]).toEqual([0, "started sh"]);
    expect(seen.at(-1)![1]).toBe("sh finished");
    for (let i = 1; i < seen.length; i++) expect(seen[i][0]).toBeGreaterThan(seen[i - 1][0]);
  });

  it("stays silent when the caller did not ask, or the interval is 0", async () => {
    const seen: number[] = [];
    await createExecHandler(cfg(0), { onShutdown: () => {} })({}, ctx((p) => seen.push(p)));
    expect(seen).toEqual([]);
    const out = await createExecHandler(cfg(50), { onShutdown: () => {} })({}, ctx());
    expect(out.isError).toBeFalsy();
  });
});
