// Bundles a hand-written TypeScript server entry the way the generator bundles emitted ones,
// so runtime tests run a real server process without going through the whole pipeline.
import { build } from "esbuild";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function bundleEntry(entry: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "kervan-test-"));
  const outfile = join(dir, "server.mjs");
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
  });
  return outfile;
}
