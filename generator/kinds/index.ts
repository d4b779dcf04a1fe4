// The registry of tool kinds. Adding a kind adds one line here and touches no other kind.
import { execKind } from "./exec/index.js";
import { httpKind } from "./http/index.js";
import { validateJsonKind } from "./validate_json/index.js";
import type { ToolKind } from "./types.js";

export const KINDS: ToolKind[] = [execKind, httpKind, validateJsonKind];

export function kindOf(tool: Record<string, unknown>): ToolKind[] {
  return KINDS.filter((k) => k.key in tool);
}
