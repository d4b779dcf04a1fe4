// Re-import: the tool-level changelog between the committed spec and a new import, with the
// breaking-change rules of `kervan changelog` (generator/audit/changelog.ts), computed from the
// two specs' manifests as the generator would record them (pipeline.ts specChangelog: no emit or
// bundle needed).
import { specChangelog, type ToolChangelog } from "../pipeline.js";
import { ImportError } from "./read.js";

export function reimportChangelog(existingPath: string, existing: string, next: string): ToolChangelog {
  const result = specChangelog(existingPath, { before: existing, after: next }, { from: "committed spec", to: "new import" });
  if ("error" in result) {
    const { location, code, message } = result.error;
    throw new ImportError("existing-spec-invalid", `${existingPath}:${location.line}: ${code} ${message} (the committed spec must build to compare against it)`);
  }
  return result;
}
