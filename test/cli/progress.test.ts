// The build progress display: a status line redrawn in place on a terminal once the build has run
// past the delay; plain lines only anywhere else.
import { describe, expect, it } from "vitest";
import { Progress, describeStage } from "../../generator/cli/progress.js";

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { isTTY, chunks, write: (t: string) => chunks.push(t) };
}

describe("build progress", () => {
  it("on a terminal, shows the stage, the server and the tool count, and clears it at the end", () => {
    const out = stream(true);
    let now = 0;
    const p = new Progress(out, 2000, () => now);
    p.stage({ stage: "check", done: 0, total: 1, tools: 0 });
    expect(out.chunks).toEqual([]); // a fast build shows nothing
    now = 2500;
    p.stage({ stage: "bundle", server: "big", done: 0, total: 2, tools: 1000 });
    expect(out.chunks.at(-1)).toBe("\r\x1b[Kkervan: bundling big (server 1 of 2, 1000 tools in all) 3 s");
    p.line("kervan: big generated in 2400 ms");
    expect(out.chunks.slice(-3)).toEqual(["\r\x1b[K", "kervan: big generated in 2400 ms\n", "\r\x1b[Kkervan: bundling big (server 1 of 2, 1000 tools in all) 3 s"]);
    p.end();
    expect(out.chunks.at(-1)).toBe("\r\x1b[K");
  });

  it("anywhere else, prints the plain lines alone", () => {
    const out = stream(false);
    let now = 0;
    const p = new Progress(out, 0, () => now);
    p.stage({ stage: "lint", done: 0, total: 1, tools: 3 });
    now = 10_000;
    p.line("kervan: demo generated in 12 ms");
    p.end();
    expect(out.chunks).toEqual(["kervan: demo generated in 12 ms\n"]);
  });

  it("names every stage", () => {
    expect(describeStage({ stage: "check", done: 0, total: 3, tools: 0 })).toBe("kervan: checking 3 specs");
    expect(describeStage({ stage: "lint", done: 0, total: 1, tools: 1 })).toBe("kervan: linting 1 tool of 1 server");
    expect(describeStage({ stage: "emit", server: "s", done: 1, total: 2, tools: 5 })).toBe("kervan: emitting s (server 2 of 2, 5 tools in all)");
    expect(describeStage({ stage: "write", done: 2, total: 2, tools: 5 })).toBe("kervan: writing 2 servers");
  });
});
