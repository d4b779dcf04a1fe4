// `kervan gen --watch`: builds, rebuilds when the spec or a schema file it includes changes, prints
// the diagnostics of a broken spec and keeps the last good output, and builds again once fixed.
import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const BIN = resolve("bin/kervan.mjs");

const spec = (description: string) => `server: { name: watched, version: 0.1.0 }
tools:
  - name: check_json
    description: ${description}
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    input: "@schemas/input.json"
    exec: { argv: [jq, -e, ., "{file}"], timeoutMs: 5000 }
`;
const schema = (description: string) => JSON.stringify({ type: "object", properties: { file: { type: "string", description } }, required: ["file"], additionalProperties: false });

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGTERM");
  child = undefined;
});

describe("kervan gen --watch", () => {
  it("rebuilds on spec and schema changes and keeps the last good output on errors", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kervan-watch-"));
    mkdirSync(join(dir, "specs"));
    mkdirSync(join(dir, "specs/schemas"));
    writeFileSync(join(dir, "specs/schemas/input.json"), schema("A JSON file to check."));
    writeFileSync(join(dir, "specs/watched.yaml"), spec("Check that a JSON file parses (jq -e). Use it before reading a config."));
    child = spawn(process.execPath, [BIN, "gen", "--watch"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr!.on("data", (c) => (err += c));
    const watching = (n: number) => expect.poll(() => err.split("watching").length - 1, { timeout: 20_000 }).toBe(n);
    const bundle = () => readFileSync(join(dir, "out/watched/server.mjs"), "utf8");

    await watching(1);
    expect(err).toContain("watched generated");
    expect(err).toContain("watching 2 paths");
    const first = bundle();

    // A broken spec: the diagnostics are printed, the output stays as it was.
    writeFileSync(join(dir, "specs/watched.yaml"), spec("Check a file, relative to the root.").replace("argv:", "argv: 1, bogus:"));
    await watching(2);
    expect(err).toMatch(/specs\/watched\.yaml:\d+:\d+: error KV/);
    expect(err).toContain("build failed; the previous output is kept");
    expect(bundle()).toBe(first);

    // Fixed again, and then the included schema changes: both rebuild.
    writeFileSync(join(dir, "specs/watched.yaml"), spec("Check that a JSON file parses (jq -e). Use it before reading a config."));
    await watching(3);
    writeFileSync(join(dir, "specs/schemas/input.json"), schema("The JSON file to validate, relative to the working directory."));
    await watching(4);
    expect(err).toContain("specs/schemas/input.json changed, rebuilding");
    expect(readFileSync(join(dir, "out/watched/src/types.ts"), "utf8")).toContain("The JSON file to validate");
    child.kill("SIGTERM");
    await new Promise((done) => child!.on("exit", done));
    rmSync(dir, { recursive: true, force: true });
  });
});
