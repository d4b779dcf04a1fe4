// A document's file `$ref`s are confined to regular files under the document's folder, each of a
// bounded size (as the spec loader does for `@file`): a FIFO, a device, a path outside the folder
// (relative, absolute or through a symlink) or an oversized file is refused by name, and nothing
// hangs. A `servers` URL that points at the machine itself, a link-local address or a cloud
// metadata endpoint is imported with a warning (in the report and in the spec's header).
import { describe, expect, it } from "vitest";
import { spawnSync, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./run-import.js";

const dir = mkdtempSync(join(tmpdir(), "kervan-import-refs-"));

/** The CLI, bounded in time: a read that blocks fails the test instead of hanging it. */
function importDoc(file: string, out: string) {
  const r = spawnSync(process.execPath, [join(ROOT, "bin", "kervan.mjs"), "import", file, "--out", out], { encoding: "utf8", timeout: 20_000, killSignal: "SIGKILL" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, timedOut: r.error !== undefined || r.signal !== null };
}

function docWithRef(ref: string, servers = [{ url: "https://refs.example.com" }]) {
  return {
    openapi: "3.0.3",
    info: { title: "Refs", version: "1" },
    servers,
    paths: {
      "/a": { post: { operationId: "postA", requestBody: { content: { "application/json": { schema: { $ref: ref } } } }, responses: { "200": { description: "ok" } } } },
    },
  };
}

function caseDir(name: string): string {
  const d = join(dir, name, "api");
  mkdirSync(d, { recursive: true });
  return d;
}

describe("kervan import confines file $refs", () => {
  const refused: Array<[string, (d: string) => string, RegExp]> = [
    ["a FIFO", (d) => (execFileSync("mkfifo", [join(d, "pipe.json")]), "./pipe.json"), /\$ref \.\/pipe\.json is a FIFO, not a regular file/],
    ["a device", () => "/dev/urandom", /\$ref \/dev\/urandom is outside the document's folder/],
    ["a device inside the folder (a symlink)", (d) => (symlinkSync("/dev/zero", join(d, "zero.json")), "./zero.json"), /\$ref \.\/zero\.json is outside the document's folder/],
    ["a relative path out of the folder", (d) => (writeFileSync(join(d, "..", "secret.json"), '{"type":"string"}'), "../secret.json"), /\$ref \/\S+\/secret\.json is outside the document's folder/],
    ["a deep relative path to /etc/passwd", () => "../../../../../../../../etc/passwd", /\$ref \/etc\/passwd is outside the document's folder/],
    ["a symlink out of the folder", (d) => (writeFileSync(join(d, "..", "outside.json"), '{"type":"string"}'), symlinkSync(join(d, "..", "outside.json"), join(d, "link.json")), "./link.json"), /\$ref \.\/link\.json is outside the document's folder/],
    ["an oversized file", (d) => (writeFileSync(join(d, "big.json"), `{"type":"string","description":"${"x".repeat(17 * 1024 * 1024)}"}`), "./big.json"), /\$ref \.\/big\.json is \d+ bytes; the limit is 16 MiB/],
  ];
  for (const [what, make, message] of refused) {
    it(`${what} is refused by name`, () => {
      const d = caseDir(what.replace(/\W+/g, "-"));
      const ref = make(d);
      writeFileSync(join(d, "openapi.json"), JSON.stringify(docWithRef(ref)));
      const out = join(d, "spec.yaml");
      const r = importDoc(join(d, "openapi.json"), out);
      expect(r.timedOut).toBe(false);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("refused (file-ref)");
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(out)).toBe(false);
    }, 30_000);
  }

  it("a regular file under the document's folder (a sub-folder too) is read", () => {
    const d = caseDir("regular");
    mkdirSync(join(d, "schemas"));
    writeFileSync(join(d, "schemas", "a.json"), JSON.stringify({ type: "object", properties: { note: { type: "string" } } }));
    writeFileSync(join(d, "openapi.json"), JSON.stringify(docWithRef("./schemas/a.json")));
    const out = join(d, "spec.yaml");
    const r = importDoc(join(d, "openapi.json"), out);
    expect(r.stderr).toContain("1 tool written");
    expect(r.code).toBe(0);
    expect(readFileSync(out, "utf8")).toMatch(/note:/);
  }, 30_000);

  it("the document itself must be a regular file", () => {
    const d = caseDir("top-fifo");
    execFileSync("mkfifo", [join(d, "openapi.json")]);
    const r = importDoc(join(d, "openapi.json"), join(d, "spec.yaml"));
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused \(unreadable\): cannot read .*openapi\.json: it is a FIFO, not a regular file/);
  }, 30_000);
});

describe("kervan import warns on a server URL that points inside the machine or its cloud", () => {
  const cases: Array<[string, RegExp]> = [
    ["http://127.0.0.1:8080/v1", /loopback/],
    ["http://localhost/v1", /loopback/],
    ["http://[::1]/v1", /loopback/],
    ["http://169.254.169.254/latest", /cloud metadata/],
    ["http://169.254.10.1/", /link-local/],
    ["http://[fe80::1]/", /link-local/],
    ["http://metadata.google.internal/computeMetadata/v1", /cloud metadata/],
    ["http://[fd00:ec2::254]/", /cloud metadata/],
  ];
  for (const [url, kind] of cases) {
    it(`${url}: imported with a warning`, () => {
      const d = caseDir(`server-${url.replace(/\W+/g, "-")}`);
      const doc = docWithRef("#/components/schemas/A", [{ url }]) as Record<string, unknown>;
      doc.components = { schemas: { A: { type: "object" } } };
      writeFileSync(join(d, "openapi.json"), JSON.stringify(doc));
      const out = join(d, "spec.yaml");
      const r = importDoc(join(d, "openapi.json"), out);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`warning: the document's server URL .* is (a|an) .*${kind.source}`));
      expect(readFileSync(out, "utf8")).toMatch(new RegExp(`^# Warning: the document's server URL .*${kind.source}`, "m"));
    }, 30_000);
  }

  it("a public server URL has no warning", () => {
    const d = caseDir("server-public");
    const doc = docWithRef("#/components/schemas/A") as Record<string, unknown>;
    doc.components = { schemas: { A: { type: "object" } } };
    writeFileSync(join(d, "openapi.json"), JSON.stringify(doc));
    const r = importDoc(join(d, "openapi.json"), join(d, "spec.yaml"));
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/warning/);
  }, 30_000);
});
