// The whole table of diagnostic codes: the common groups (shared/codes.ts) and each kind's own,
// kinds added at run time included, in the order of their first code. docs/diagnostics.md is
// rendered from the registered kinds' table (a kind added elsewhere documents its codes itself).
import { COMMON_CODE_GROUPS, renderCodesDoc, type CodeGroup, type CodeInfo } from "../shared/codes.js";
import { allKinds, registeredKinds } from "./index.js";
import type { AnyKind } from "./types.js";

const firstCode = (g: CodeGroup) => g.codes[0]?.code ?? "";

/** Every group of codes: common ones and each kind's, by first code. */
export function codeGroups(kinds: AnyKind[] = allKinds()): CodeGroup[] {
  return [...COMMON_CODE_GROUPS, ...kinds.map((k) => k.codes)].sort((a, b) => (firstCode(a) < firstCode(b) ? -1 : firstCode(a) > firstCode(b) ? 1 : 0));
}

/** Every code, group by group. */
export const allCodes = (kinds: AnyKind[] = allKinds()): CodeInfo[] => codeGroups(kinds).flatMap((g) => g.codes);

/** docs/diagnostics.md: the common codes and the registered kinds' codes. */
export const codesDoc = (): string => renderCodesDoc(codeGroups(registeredKinds()));
