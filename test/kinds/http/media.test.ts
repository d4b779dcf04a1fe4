// Raw http tools that answer image/* or audio/* return MCP image/audio content blocks, not text.
import { describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { createHttpHandler, type HttpToolConfig } from "../../../templates/kinds/http/index.js";
import { mediaOf } from "../../../templates/kinds/http/media.js";
import { buildResult } from "../../../templates/runtime/tools.js";
import type { ToolDef } from "../../../templates/runtime/types.js";
import { ctx, lit, secret, useUpstream, toolConfig } from "./upstream.js";

// A 1x1 PNG: binary, with bytes that are not valid UTF-8 (0x89 first), so text decoding would garble it.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const WAV = Buffer.from("UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=", "base64");

const up = useUpstream();

const raw = (over: Partial<HttpToolConfig> = {}, env: Record<string, string> = {}) =>
  createHttpHandler(toolConfig({ path: [[lit("p")]], output: { raw: true, hasSchema: false }, ...over }), { env: { T_BASE_URL: up.origin, ...env } });
const answer = (type: string, body: Buffer | string) => (_q: unknown, res: ServerResponse) => res.writeHead(200, { "content-type": type }).end(body);

describe("media types", () => {
  it("recognises image/* and audio/*, lower-cased and without parameters", () => {
    expect(mediaOf("image/png")).toEqual({ type: "image", mimeType: "image/png" });
    expect(mediaOf("Audio/WAV; codecs=1")).toEqual({ type: "audio", mimeType: "audio/wav" });
    expect(mediaOf("image/svg+xml")).toEqual({ type: "image", mimeType: "image/svg+xml" });
  });

  it("anything else, or a malformed type, is not media", () => {
    for (const t of [null, "", "text/plain", "application/octet-stream", "video/mp4", "image/", "image", "image/png x", "imagex/png", " image/p\u00e9g"]) {
      expect(mediaOf(t)).toBeUndefined();
    }
  });
});

describe("raw answers with media", () => {
  it("an image becomes one image block carrying the exact bytes", async () => {
    up.route = answer("image/png", PNG);
    const out = await raw()({}, ctx());
    expect(out).toEqual({ content: [{ type: "image", data: PNG.toString("base64"), mimeType: "image/png" }] });
  });

  it("audio becomes an audio block; content-type parameters are dropped", async () => {
    up.route = answer("audio/wav; rate=8000", WAV);
    expect(await raw()({}, ctx())).toEqual({ content: [{ type: "audio", data: WAV.toString("base64"), mimeType: "audio/wav" }] });
  });

  it("the call result carries only the media block", async () => {
    up.route = answer("image/png", PNG);
    const tool = { name: "chart", maxOutputChars: 100 } as ToolDef;
    expect(buildResult(tool, await raw()({}, ctx()), "2026-07-28")).toEqual({ content: [{ type: "image", data: PNG.toString("base64"), mimeType: "image/png" }] });
  });

  it("text answers, and empty media bodies, stay text", async () => {
    up.route = answer("text/plain", "hello");
    expect(await raw()({}, ctx())).toEqual({ text: "hello" });
    up.route = answer("image/png", "");
    expect(await raw()({}, ctx())).toEqual({ text: "" });
  });

  it("without raw: true an image is still not JSON (select tools are unchanged)", async () => {
    up.route = answer("image/png", PNG);
    const out = await createHttpHandler(toolConfig({ path: [[lit("p")]] }), { env: { T_BASE_URL: up.origin } })({}, ctx());
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/^the upstream's answer is not JSON \(HTTP 200, content-type image\/png, \d+ bytes\)$/);
  });

  it("an error status is a text error, whatever the content-type", async () => {
    up.route = (_q, res) => res.writeHead(500, { "content-type": "image/png" }).end("broken");
    expect(await raw()({}, ctx())).toEqual({ isError: true, text: "the upstream answered HTTP 500 Internal Server Error: broken" });
  });

  it("media holding a secret, in any spelling the redactor knows, is refused: binary cannot be redacted", async () => {
    const cfg = { headers: [{ name: "Authorization", value: [lit("Bearer "), secret("token")] }], secrets: [{ name: "token", env: "T_TOKEN", required: true }] };
    for (const leak of ["s3cr3t-value", Buffer.from("s3cr3t-value").toString("base64"), "s3cr3t%2Dvalue"]) {
      up.route = answer("image/png", Buffer.concat([PNG, Buffer.from(leak)]));
      expect(await raw(cfg, { T_TOKEN: "s3cr3t-value" })({}, ctx())).toEqual({ isError: true, text: "refused: the upstream's image/png answer contains a configured secret" });
    }
    up.route = answer("image/png", PNG);
    expect((await raw(cfg, { T_TOKEN: "s3cr3t-value" })({}, ctx())).content).toHaveLength(1);
  });

  it("a non-ASCII secret is found in its raw UTF-8 bytes amid binary data", async () => {
    const cfg = { secrets: [{ name: "k", env: "T_K", required: true }] };
    up.route = answer("audio/wav", Buffer.concat([Buffer.from([0xff, 0xfe, 0x80]), Buffer.from("ключ-секрет"), WAV]));
    expect((await raw(cfg, { T_K: "ключ-секрет" })({}, ctx())).text).toBe("refused: the upstream's audio/wav answer contains a configured secret");
  });

  it("a tool with an output schema cannot return media", async () => {
    up.route = answer("image/png", PNG);
    expect(await raw({ output: { raw: true, hasSchema: true } })({}, ctx())).toEqual({
      isError: true,
      text: "the upstream answered image/png, which this tool's output schema cannot hold",
    });
  });
});
