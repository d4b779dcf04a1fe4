// http tools with `output.resource: true` answer with the fetched document as an embedded resource:
// its URL (secrets redacted), media type and redacted text, or a base64 blob for binary data.
import { describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { createHttpHandler, type HttpToolConfig } from "../../../templates/kinds/http/index.js";
import { checkSources } from "../../../generator/pipeline.js";
import { ctx, input, lit, secret, useUpstream, toolConfig } from "./upstream.js";

const PDF = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0xe2, 0xe3, 0xcf, 0xd3]);
const KEY = "k3y-Secret-42";

const up = useUpstream();

const doc = (over: Partial<HttpToolConfig> = {}) =>
  createHttpHandler(
    toolConfig({
      path: [[lit("docs")], [input("name")]],
      query: [{ name: "key", value: [secret("key")] }],
      secrets: [{ name: "key", env: "DOC_KEY", required: true }],
      output: { resource: true, hasSchema: false },
      ...over,
    }),
    { env: { T_BASE_URL: up.origin, DOC_KEY: KEY } },
  );
const answer = (type: string, body: Buffer | string) => (_q: unknown, res: ServerResponse) => res.writeHead(200, { "content-type": type }).end(body);

describe("embedded resources", () => {
  it("a text document comes back under its URL with the key redacted from both", async () => {
    up.route = answer("text/markdown; charset=utf-8", `# Guide\nyour key is ${KEY}\n`);
    const out = await doc()({ name: "guide.md" }, ctx());
    expect(out.content).toEqual([
      { type: "resource", resource: { uri: `${up.origin}/docs/guide.md?key=[REDACTED]`, mimeType: "text/markdown", text: "# Guide\nyour key is [REDACTED]\n" } },
    ]);
    expect(up.seen[0].target).toBe(`/docs/guide.md?key=${KEY}`);
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  it("binary data travels as a base64 blob, and is refused when it holds the key", async () => {
    up.route = answer("application/pdf", PDF);
    const out = await doc()({ name: "a.pdf" }, ctx());
    expect(out.content?.[0]).toMatchObject({ type: "resource", resource: { mimeType: "application/pdf", blob: PDF.toString("base64") } });
    up.route = answer("application/octet-stream", Buffer.concat([PDF, Buffer.from(KEY)]));
    const refused = await doc()({ name: "b.bin" }, ctx());
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused)).not.toContain(KEY);
  });

  it("an error status is still a readable tool error, not a resource", async () => {
    up.route = (_q, res) => res.writeHead(404, { "content-type": "text/plain" }).end("no such document");
    const out = await doc()({ name: "missing.md" }, ctx());
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/404/);
  });

  it("the build refuses resource with select, raw or an output schema", () => {
    const spec = (output: string) => ({
      path: "r.yaml",
      text: [
        "server: { name: r, version: 0.1.0 }",
        "tools:",
        "  - name: get_doc",
        "    description: Get a document.",
        "    http: { method: GET, baseUrl: 'https://docs.example.com', path: /guide }",
        `    output: ${output}`,
      ].join("\n"),
    });
    const codes = (output: string) => checkSources([spec(output)]).diagnostics.map((d) => d.code);
    expect(codes("{ resource: true }")).toEqual([]);
    expect(codes("{ resource: true, raw: true }")).toEqual(["KV426"]);
    expect(codes("{ resource: true, schema: { type: string } }")).toEqual(["KV432"]);
  });
});

describe("resource links", () => {
  const linked = (over: Partial<HttpToolConfig> = {}) =>
    createHttpHandler(toolConfig({ path: [[lit("docs")], [input("name")]], output: { link: true, hasSchema: false }, ...over }), { env: { T_BASE_URL: up.origin, DOC_KEY: KEY } });

  it("a non-JSON answer comes back as a link to its URL with its media type and size, without the body", async () => {
    up.route = answer("application/pdf", PDF);
    const out = await linked()({ name: "a b.pdf" }, ctx());
    expect(out.isError).toBeFalsy();
    expect(out.content).toEqual([{ type: "resource_link", uri: `${up.origin}/docs/a%20b.pdf`, name: "a b.pdf", mimeType: "application/pdf", size: PDF.length }]);
    expect(out.text).toContain(`${PDF.length} bytes of application/pdf`);
    expect(JSON.stringify(out)).not.toContain(PDF.toString("base64"));
  });

  it("refuses to hand out a URL that carries a secret", async () => {
    up.route = answer("text/html", "<p>hi</p>");
    const out = await linked({ query: [{ name: "key", value: [secret("key")] }], secrets: [{ name: "key", env: "DOC_KEY", required: true }] })({ name: "page.html" }, ctx());
    expect(out.isError).toBe(true);
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(out.text).toContain("cannot be returned as a link");
  });

  it("an error status is a tool error, not a link", async () => {
    up.route = (_q, res) => res.writeHead(500, { "content-type": "text/plain" }).end("down");
    const out = await linked()({ name: "x.pdf" }, ctx());
    expect(out.isError).toBe(true);
    expect(out.content).toBeUndefined();
  });

  it("the build refuses link with another output way or an output schema", () => {
    const spec = (output: string) => ({
      path: "r.yaml",
      text: ["server: { name: r, version: 0.1.0 }", "tools:", "  - name: get_doc", "    description: Get a document.", "    http: { method: GET, baseUrl: 'https://docs.example.com', path: /guide.pdf }", `    output: ${output}`].join("\n"),
    });
    const codes = (output: string) => checkSources([spec(output)]).diagnostics.map((d) => d.code);
    expect(codes("{ link: true }")).toEqual([]);
    expect(codes("{ link: true, raw: true }")).toEqual(["KV426"]);
    expect(codes("{ link: true, schema: { type: string } }")).toEqual(["KV432"]);
  });
});
