// The kinds defined in test/: each folder test/fixtures/kinds/<key>/ holds a kind.ts that exports
// the kind whose key is the folder's name. Tests that cover every kind (codes, docs, bad specs,
// emit goldens) add them to the registry, each once.
import { readdirSync } from "node:fs";
import { addKind, findKind } from "../../generator/kinds/index.js";
import type { AnyKind } from "../../generator/kinds/types.js";

export const FIXTURE_KINDS = "test/fixtures/kinds";

/** The key of every kind folder under test/fixtures/kinds. */
export const fixtureKindKeys = (): string[] =>
  readdirSync(FIXTURE_KINDS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

const isKind = (v: unknown, key: string): v is AnyKind => typeof v === "object" && v !== null && "key" in v && v.key === key;

/** Imports and adds every fixture kind (one already added is left as it is); returns them. */
export async function addFixtureKinds(): Promise<AnyKind[]> {
  const kinds: AnyKind[] = [];
  for (const key of fixtureKindKeys()) {
    const mod: Record<string, unknown> = await import(`../fixtures/kinds/${key}/kind.ts`);
    const kind = Object.values(mod).find((v) => isKind(v, key));
    if (!kind) throw new Error(`${FIXTURE_KINDS}/${key}/kind.ts exports no kind with key '${key}'`);
    if (!findKind(key)) addKind(kind);
    kinds.push(kind);
  }
  return kinds;
}
