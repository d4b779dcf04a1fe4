// The README's performance table is the last `npm run bench` run: the block between its markers is
// exactly what test/bench/results.ts renders from test/bench/results.json, and every row of that
// file says when and on what machine it was measured (or that it is a figure stated earlier).
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { currentBlock, merge, readmeBlock, readResults, type Result } from "../bench/results.js";

const SECTIONS = ["startup", "exec", "sandbox", "http", "validate-json", "hardening", "tasks", "serving", "resources", "generate", "import", "catalog", "codemode", "floor"];

describe("the README's performance table", () => {
  const results = readResults();

  it("is the block rendered from test/bench/results.json", () => {
    const block = currentBlock(readFileSync("README.md", "utf8"));
    expect(block, "README.md has the bench results markers").toBeDefined();
    expect(block).toBe(readmeBlock(results));
  });

  it("has a date and a machine on every row, and a number unless the figure was stated earlier", () => {
    expect(results.rows.length).toBeGreaterThan(0);
    for (const r of results.rows) {
      expect(r.measured, r.name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(SECTIONS, r.name).toContain(r.group);
      expect(r.machine.node.length, r.name).toBeGreaterThan(0);
      if (r.stated === undefined) {
        expect(r.ratio === null || Number.isFinite(r.ratio), r.name).toBe(true);
        expect(r.machine.load, r.name).toBeTypeOf("number");
      } else expect(r.ratio, r.name).toBeNull();
    }
    // The rows of the sections the last run ran carry its date and are measured, not stated.
    for (const r of results.rows.filter((x) => results.run.groups.includes(x.group))) {
      expect(r.measured).toBe(results.run.date);
      expect(r.stated).toBeUndefined();
    }
  });
});

describe("merging a run into the results file", () => {
  const machine = { node: "v0", os: "test", cpus: "1", load: 0 };
  const row = (group: string, name: string, measured: string): Result => ({ group, name, ratio: 1, measured, machine });
  const before = { run: { date: "2026-01-01", machine, groups: ["exec", "http"] }, rows: [row("exec", "e1", "2026-01-01"), row("http", "h1", "2026-01-01"), row("http", "h2", "2026-01-01")] };

  it("replaces the rows of the sections run and keeps the others with their dates", () => {
    const after = merge(before, [row("http", "h3", "2026-02-02")], { date: "2026-02-02", machine, groups: ["http"] }, SECTIONS);
    expect(after.rows.map((r) => [r.name, r.measured])).toEqual([
      ["e1", "2026-01-01"],
      ["h3", "2026-02-02"],
    ]);
  });

  it("orders rows by section, keeping the bench's order within one", () => {
    const after = merge(before, [row("startup", "s2", "2026-02-02"), row("startup", "s1", "2026-02-02")], { date: "2026-02-02", machine, groups: ["startup"] }, SECTIONS);
    expect(after.rows.map((r) => r.name)).toEqual(["s2", "s1", "e1", "h1", "h2"]);
  });

  it("a changed figure changes the table, so a stale README fails the first test", () => {
    const changed = { ...results(), rows: results().rows.map((r, i) => (i === 0 ? { ...r, ratio: (r.ratio ?? 0) + 1, stated: undefined } : r)) };
    expect(readmeBlock(changed)).not.toBe(readmeBlock(results()));
  });
});

function results() {
  return readResults();
}
