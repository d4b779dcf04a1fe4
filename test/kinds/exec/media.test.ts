// stdoutMedia: an exec tool whose stdout is an image or audio returns its bytes as one base64 content
// block of that media type, under its sandbox, through the official client (both eras) and on the raw
// stdio wire; output past maxOutputBytes is a tool error (a cut image is no image); a failing command
// is reported as text like any other.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, type Connected } from "../../helpers/client.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-media-"));
const PNG = readFileSync("test/fixtures/conformance/pixel.png");
let bundle: string;

const tool = (name: string, extra: string) => `  - name: ${name}
    description: Print a fixed file of the folder as media. Use it to check media results.
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    input: { type: object, properties: {}, additionalProperties: false }
    exec:
      argv: [cat, ${name === "broken" ? "missing.png" : "pixel.png"}]
      cwd: ${dir}
      timeoutMs: 10000
${extra}`;

beforeAll(() => {
  copyFileSync("test/fixtures/conformance/pixel.png", join(dir, "pixel.png"));
  const spec = `server: { name: media, version: 0.1.0 }\ntools:\n${tool("picture", "      stdoutMedia: image/png\n")}${tool("sound", "      stdoutMedia: audio/wav\n")}${tool("too_big", "      stdoutMedia: image/png\n      maxOutputBytes: 10\n")}${tool("broken", "      stdoutMedia: image/png\n")}`;
  writeFileSync(join(dir, "media.yaml"), spec);
  const gen = spawnSync(process.execPath, ["bin/kervan.mjs", "gen", join(dir, "media.yaml"), "--out", join(dir, "out")], { encoding: "utf8" });
  if (gen.status !== 0) throw new Error(`kervan gen failed:\n${gen.stdout}${gen.stderr}`);
  bundle = join(dir, "out/media/server.mjs");
}, 120_000);

describe("stdoutMedia through the official client", () => {
  let modern: Connected;
  let legacy: Connected;
  beforeAll(async () => {
    [modern, legacy] = await Promise.all([connectStdio(bundle, "2026-07-28"), connectStdio(bundle, "2025-11-25")]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([modern?.close(), legacy?.close()]);
  });

  for (const era of ["2026-07-28", "2025-11-25"] as const) {
    it(`returns the command's bytes as an image block (${era})`, async () => {
      const c = era === "2026-07-28" ? modern : legacy;
      const result = await c.client.callTool({ name: "picture", arguments: {} });
      expect(result.isError).toBeFalsy();
      const content = result.content as { type: string; data?: string; mimeType?: string; text?: string }[];
      expect(content[0]?.type).toBe("text");
      expect(content[0]?.text).toContain(`${PNG.length} bytes of image/png`);
      expect(content[1]).toEqual({ type: "image", data: PNG.toString("base64"), mimeType: "image/png" });
      expect((result.structuredContent as { stdout: string }).stdout).toBe("");
    });
  }

  it("returns audio as an audio block", async () => {
    const result = await modern.client.callTool({ name: "sound", arguments: {} });
    expect((result.content as { type: string }[])[1]).toEqual({ type: "audio", data: PNG.toString("base64"), mimeType: "audio/wav" });
  });

  it("refuses output past maxOutputBytes as a tool error, with no cut image", async () => {
    const result = await modern.client.callTool({ name: "too_big", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("more than 10 bytes (maxOutputBytes) of image/png");
    expect((result.content as { type: string }[]).map((b) => b.type)).toEqual(["text"]);
  });

  it("reports a failing command as text", async () => {
    const result = await modern.client.callTool({ name: "broken", arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { type: string }[]).map((b) => b.type)).toEqual(["text"]);
    expect(JSON.stringify(result.content)).toContain("missing.png");
  });
});

describe("stdoutMedia on the raw stdio wire (2025-11-25)", () => {
  it("carries the image block in the tools/call result", async () => {
    const proc = spawn(process.execPath, [bundle], { stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    const answered = new Promise<Record<string, unknown>>((resolve) => {
      proc.stdout.on("data", (c) => {
        out += c;
        const line = out.split("\n").find((l) => l.includes('"id":2'));
        if (line) resolve(JSON.parse(line));
      });
    });
    const send = (m: unknown) => proc.stdin.write(JSON.stringify(m) + "\n");
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "picture", arguments: {} } });
    const answer = await answered;
    proc.kill();
    expect((answer.result as { content: unknown[] }).content[1]).toEqual({ type: "image", data: PNG.toString("base64"), mimeType: "image/png" });
  });
});
