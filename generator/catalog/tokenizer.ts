// The token count of a text in the o200k_base encoding (gpt-tokenizer). The tokenizer is loaded on
// the first count: its encoding table is megabytes of code to compile and a table of 200,000 ranks
// to build, which a command that counts nothing (or a spec with errors) never pays. `kervan gen`
// counts on a worker of the build's pool while this thread emits (catalog/listing.ts tokenCounts).
import { createRequire } from "node:module";
import { once } from "../shared/once.js";

export const ENCODING = "o200k_base";

/** Counts a text's tokens. */
export type Counter = (text: string) => number;

const tokenizer = once((): { countTokens: Counter } => createRequire(import.meta.url)("gpt-tokenizer/encoding/o200k_base"));

export const countTokens: Counter = (text) => tokenizer().countTokens(text);

/** The same counter, loaded as an ES module (a worker that has nothing else to do meanwhile awaits it). */
export async function loadCounter(): Promise<Counter> {
  const { countTokens: count } = await import("gpt-tokenizer/encoding/o200k_base");
  return count;
}
