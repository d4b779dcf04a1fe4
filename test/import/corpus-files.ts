// Where the vendored corpus lives and how the sample was drawn (see vendor-corpus.ts).
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";

export const CORPUS = join(import.meta.dirname, "..", "fixtures", "openapi", "corpus");
export const SAMPLE_EVERY = 13;

export function githubDescription(): Buffer {
  return gunzipSync(readFileSync(join(CORPUS, "api.github.com.json.gz")));
}

export function apisGuruSample(): Array<{ id: string; doc: unknown }> {
  return gunzipSync(readFileSync(join(CORPUS, "apis-guru-sample.jsonl.gz")))
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
