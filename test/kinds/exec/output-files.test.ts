// outputFiles: an exec tool's declared files, written into the call's own output directory under
// bubblewrap, come back as embedded resources (text or base64 blob, stable URI), through the official
// client in both eras; a symbolic link planted there (to a file the sandbox never showed, or as a
// folder on the way) is refused and never followed; missing files, per-file and total caps follow
// the declaration; and the output directory is gone after the call.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, type Connected } from "../../helpers/client.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-outfiles-"));
const work = join(dir, "work");
const secret = join(dir, "secret", "token.txt");
const SECRET = "not-for-the-model-7f3a";
const PNG = readFileSync("test/fixtures/conformance/pixel.png");
let bundle: string;

type Block = { type: string; text?: string; resource?: { uri: string; mimeType: string; text?: string; blob?: string } };

const tool = (name: string, script: string, extra: string) => `  - name: ${name}
    description: Run a fixed script that writes files for the caller. Use it to check output files.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    input: { type: object, properties: {}, additionalProperties: false }
    exec:
      argv: [sh, -c, ${JSON.stringify(script)}]
      cwd: ${work}
      timeoutMs: 10000
${extra}`;

const files = (list: string) => `      outputFiles:\n${list}`;

beforeAll(() => {
  mkdirSync(work);
  mkdirSync(join(dir, "secret"));
  writeFileSync(secret, SECRET);
  copyFileSync("test/fixtures/conformance/pixel.png", join(work, "pixel.png"));
  const O = '"$KERVAN_OUTPUT_DIR"';
  const spec = [
    "server: { name: outfiles, version: 0.1.0 }\ntools:",
    tool("report", `printf '# Week\\n' > ${O}/report.md && mkdir ${O}/charts && cp pixel.png ${O}/charts/a.png && printf '\\377\\376' > ${O}/odd.txt && echo written`, files(
      "        - { path: report.md, mimeType: text/markdown }\n        - { path: charts/a.png, mimeType: image/png }\n        - { path: odd.txt, mimeType: text/plain }\n        - { path: later.csv, mimeType: text/csv, missing: omit }\n")),
    tool("link_file", `ln -s ${secret} ${O}/report.md`, files("        - { path: report.md, mimeType: text/plain }\n")),
    tool("link_dir", `ln -s ${join(dir, "secret")} ${O}/sub`, files("        - { path: sub/token.txt, mimeType: text/plain }\n")),
    tool("not_file", `mkdir ${O}/report.md`, files("        - { path: report.md, mimeType: text/plain }\n")),
    tool("missing", "true", files("        - { path: report.md, mimeType: text/plain }\n")),
    tool("too_big", `printf 0123456789 > ${O}/a.txt`, files("        - { path: a.txt, mimeType: text/plain, maxBytes: 4 }\n")),
    tool("too_much", `printf 123 > ${O}/a.txt && printf 456 > ${O}/b.txt`, `${files("        - { path: a.txt, mimeType: text/plain }\n        - { path: b.txt, mimeType: text/plain }\n")}      outputFilesMaxBytes: 5\n`),
    tool("failing", `printf x > ${O}/a.txt; exit 3`, files("        - { path: a.txt, mimeType: text/plain }\n")),
    tool("unsandboxed", `printf plain > ${O}/a.txt`, `${files("        - { path: a.txt, mimeType: text/plain }\n")}      sandbox: none\n`),
  ].join("\n");
  writeFileSync(join(dir, "outfiles.yaml"), spec);
  const gen = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", join(dir, "outfiles.yaml"), "--out", join(dir, "out")], { encoding: "utf8" });
  if (gen.status !== 0) throw new Error(`kervan gen failed:\n${gen.stdout}${gen.stderr}`);
  bundle = join(dir, "out/outfiles/server.mjs");
}, 120_000);

const leftovers = () => readdirSync(tmpdir()).filter((n) => n.startsWith("kervan-output-"));

describe("outputFiles under bubblewrap through the official client", () => {
  let modern: Connected;
  let legacy: Connected;
  let before: string[];
  beforeAll(async () => {
    before = leftovers();
    [modern, legacy] = await Promise.all([connectStdio(bundle, "2026-07-28"), connectStdio(bundle, "2025-11-25")]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([modern?.close(), legacy?.close()]);
  });
  const call = async (name: string, c = modern) => {
    const r = await c.client.callTool({ name, arguments: {} });
    return { isError: r.isError === true, content: r.content as Block[] };
  };

  for (const era of ["2026-07-28", "2025-11-25"] as const) {
    it(`returns the declared files as embedded resources in declared order (${era})`, async () => {
      const r = await call("report", era === "2026-07-28" ? modern : legacy);
      expect(r.isError).toBe(false);
      expect(r.content.map((b) => b.type)).toEqual(["text", "resource", "resource", "resource"]);
      expect(r.content[1].resource).toEqual({ uri: "kervan-output:///report/report.md", mimeType: "text/markdown", text: "# Week\n" });
      expect(r.content[2].resource).toEqual({ uri: "kervan-output:///report/charts/a.png", mimeType: "image/png", blob: PNG.toString("base64") });
      // Declared as text but not UTF-8: the bytes travel unchanged as a blob.
      expect(r.content[3].resource).toEqual({ uri: "kervan-output:///report/odd.txt", mimeType: "text/plain", blob: Buffer.from([0xff, 0xfe]).toString("base64") });
      expect(r.content[0].text).toContain("later.csv: not written (left out)");
    });
  }

  it("refuses a symbolic link to a file the sandbox never showed, without reading it", async () => {
    const r = await call("link_file");
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain("report.md is a symbolic link");
    expect(JSON.stringify(r.content)).not.toContain(SECRET);
  });

  it("refuses a symbolic link as a folder on the way", async () => {
    const r = await call("link_dir");
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain("outside the call's output directory");
    expect(JSON.stringify(r.content)).not.toContain(SECRET);
  });

  it("refuses what is not a regular file", async () => {
    const r = await call("not_file");
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain("not a regular file");
  });

  it("makes a missing declared file a tool error", async () => {
    const r = await call("missing");
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain("did not write the declared output file report.md");
  });

  it("refuses a file past its cap, and files past the total cap", async () => {
    const big = await call("too_big");
    expect(big.isError).toBe(true);
    expect(JSON.stringify(big.content)).toContain("a.txt is 10 bytes, more than its cap of 4");
    const much = await call("too_much");
    expect(much.isError).toBe(true);
    expect(JSON.stringify(much.content)).toContain("more than 5 bytes together");
    expect(much.content.map((b) => b.type)).toEqual(["text"]);
  });

  it("returns no files from a failed run", async () => {
    const r = await call("failing");
    expect(r.isError).toBe(true);
    expect(r.content.map((b) => b.type)).toEqual(["text"]);
  });

  it("gives an unsandboxed tool its output directory too", async () => {
    const r = await call("unsandboxed");
    expect(r.content[1]?.resource).toEqual({ uri: "kervan-output:///unsandboxed/a.txt", mimeType: "text/plain", text: "plain" });
  });

  it("removes every call's output directory", () => {
    expect(leftovers().filter((n) => !before.includes(n))).toEqual([]);
  });
});

describe("outputFiles in the audit", () => {
  it("AUDIT.md and the manifest state the declared files and their caps", () => {
    const audit = readFileSync(join(dir, "out/outfiles/AUDIT.md"), "utf8");
    expect(audit).toContain("`charts/a.png` (image/png, at most 1048576 bytes, a tool error when missing)");
    expect(audit).toContain("`later.csv` (text/csv, at most 1048576 bytes, left out when missing)");
    const manifest = readFileSync(join(dir, "out/outfiles/kervan.manifest.json"), "utf8");
    expect(manifest).toContain('"totalMaxBytes": 5');
  });
});
