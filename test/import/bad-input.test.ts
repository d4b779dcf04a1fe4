// Bad API descriptions: each is refused with a named reason, or the one bad operation is skipped
// with its reason; never a stack trace, never a fetch.
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES } from "./cases.js";
import { kervan } from "./run-import.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-import-bad-"));
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |internal error/);

describe("kervan import refuses bad input by name", () => {
  const refused: Array<[string, string, RegExp]> = [
    ["url-ref.yaml", "url-ref", /\$ref to a URL \(https:\/\/schemas\.example\.com\/a\.json\).*never fetches/],
    ["broken-file-ref.yaml", "broken-ref", /points at nothing: \.\/missing\.yaml#\/A/],
    ["version.yaml", "unsupported-version", /Swagger 1\.2; kervan import reads Swagger 2\.0 and OpenAPI 3\.0 and 3\.1/],
    ["openapi4.json", "unsupported-version", /OpenAPI 4\.0\.0/],
    ["invalid.yaml", "invalid-syntax", /is not valid YAML: .*line \d+/],
    ["duplicate-key.yaml", "invalid-syntax", /is not valid YAML: Map keys must be unique at line 9, column 7$/m],
  ];
  for (const [file, reason, message] of refused) {
    it(`${file}: refused (${reason})`, () => {
      const out = join(dir, `${file}.yaml`);
      const r = kervan(["import", join("bad", file), "--out", out], FIXTURES);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`refused (${reason})`);
      expect(r.stderr).toMatch(message);
      noStack(r.stderr);
      expect(existsSync(out)).toBe(false);
    });
  }

  it("a missing file is refused by name", () => {
    const r = kervan(["import", join(dir, "nope.yaml"), "--out", join(dir, "x.yaml")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused \(unreadable\): cannot read .*nope\.yaml/);
  });

  it("a broken local $ref skips its operation with the reason and keeps the rest", () => {
    const out = join(dir, "broken-local.yaml");
    const r = kervan(["import", "bad/broken-local-ref.yaml", "--out", out], FIXTURES);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('GET /a (getA): $ref "#/components/schemas/Nope" points at nothing');
    expect(readFileSync(out, "utf8")).toMatch(/name: get_b/);
    expect(readFileSync(out, "utf8")).not.toMatch(/name: get_a/);
  });

  it("an operation whose input breaks Kervan's schema limits is skipped with the limit named", () => {
    const properties = Object.fromEntries(Array.from({ length: 2100 }, (_, i) => [`field${i}`, { type: "string" }]));
    const doc = {
      openapi: "3.0.3",
      info: { title: "Limits", version: "1" },
      servers: [{ url: "https://limits.example.com" }],
      paths: {
        "/huge": { post: { operationId: "postHuge", requestBody: { content: { "application/json": { schema: { type: "object", properties } } } }, responses: { "200": { description: "ok" } } } },
        "/small": { get: { operationId: "getSmall", summary: "Get a small thing", responses: { "200": { description: "ok" } } } },
      },
    };
    writeFileSync(join(dir, "limits.json"), JSON.stringify(doc));
    const r = kervan(["import", join(dir, "limits.json"), "--out", join(dir, "limits.yaml")]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/POST \/huge \(postHuge\): its input schema breaks Kervan's schema limits: schema has 2101 subschemas; the limit is 2000 \(KV505\)/);
    expect(readFileSync(join(dir, "limits.yaml"), "utf8")).toMatch(/get_small/);
  });

  // A large document (over 512 KiB) has its schemas judged on a worker while its operations are
  // still being converted (shared/schema-compiler.ts stream); a small one by the check itself.
  // Either way, an operation whose schema does not compile is skipped with the same reason.
  it("an operation whose schema does not compile is skipped with the check's reason, in a small and in a large document", () => {
    const reasons: string[] = [];
    for (const [name, count] of [["small", 3], ["large", 300]] as const) {
      const paths: Record<string, unknown> = {};
      for (let i = 0; i < count; i++) {
        // A negative minLength passes the conversion and fails ajv's meta-schema in the compile.
        const schema = { type: "string", minLength: i === 1 ? -1 : i };
        paths[`/items${i}`] = { get: { operationId: `getItem${i}`, summary: `Get item ${i}`, description: "Reads one item. ".repeat(120), parameters: [{ name: "q", in: "query", schema }], responses: { "200": { description: "ok" } } } };
      }
      const file = join(dir, `uncompilable-${name}.json`);
      writeFileSync(file, JSON.stringify({ openapi: "3.0.3", info: { title: "Patterns", version: "1" }, servers: [{ url: "https://patterns.example.com" }], paths }));
      if (name === "large") expect(readFileSync(file).length).toBeGreaterThan(512 * 1024);
      const out = join(dir, `uncompilable-${name}.yaml`);
      const r = kervan(["import", file, "--out", out, "--max-tools", "1000"]);
      expect(r.code, r.stderr).toBe(0);
      noStack(r.stderr);
      const reason = /GET \/items1 \(getItem1\): (.*)/.exec(r.stderr)?.[1];
      expect(reason).toMatch(/kervan would refuse it: KV510 schema does not compile: .*minLength must be >= 0/);
      reasons.push(reason!);
      const text = readFileSync(out, "utf8");
      expect(text).toMatch(/name: get_item0\n/);
      expect(text).not.toMatch(/name: get_item1\n/);
      expect(text).toMatch(/name: get_item2\n/);
    }
    expect(reasons[1]).toBe(reasons[0]);
  });

  it("a document with more operations than the profile allows stops and lists tags to choose from", () => {
    const paths = Object.fromEntries(
      Array.from({ length: 45 }, (_, i) => [`/r${i}`, { get: { operationId: `get${i}`, tags: [i % 3 ? "items" : "admin"], responses: { "200": { description: "ok" } } } }]),
    );
    writeFileSync(join(dir, "many.json"), JSON.stringify({ openapi: "3.1.0", info: { title: "Many", version: "1" }, paths }));
    const r = kervan(["import", join(dir, "many.json"), "--out", join(dir, "many.yaml"), "--profile", "cursor"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused \(too-many-tools\): 45 operations would become tools; the limit is 40 \(profile cursor/);
    expect(r.stderr).toMatch(/items \(30\)\n\s+admin \(15\)/);
    const narrowed = kervan(["import", join(dir, "many.json"), "--out", join(dir, "many.yaml"), "--profile", "cursor", "--include-tags", "items"]);
    expect(narrowed.code).toBe(0);
    expect(narrowed.stderr).toMatch(/30 tools written/);
  });

  it("usage errors exit 2", () => {
    expect(kervan(["import"]).code).toBe(2);
    expect(kervan(["import", "x.yaml", "--profile", "emacs"]).stderr).toMatch(/--profile must be one of generic, claude, openai, vscode, cursor/);
  });
});
