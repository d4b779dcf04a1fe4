// Re-import: the tool-level changelog between the committed spec and a new import, with the
// breaking-change rules of `kervan changelog` (generator/audit/changelog.ts), computed from the
// two specs' manifests as the generator would record them (no emit or bundle needed).
import { checkSources } from "../pipeline.js";
import { normalize } from "../normalize.js";
import { planServer } from "../plan.js";
import { manifestTools, serverCapabilities } from "../audit/build.js";
import { changelog } from "../audit/changelog.js";
import { renderChangelog } from "../audit/changelog-render.js";
import type { Manifest } from "../audit/types.js";
import type { Changelog } from "../audit/change.js";
import { ImportError } from "./read.js";

function manifestOf(path: string, text: string): Manifest {
  const { diagnostics, specs } = checkSources([{ path, text }]);
  const error = diagnostics.find((d) => d.severity === "error");
  if (error) throw new ImportError("existing-spec-invalid", `${path}:${error.location.line}: ${error.code} ${error.message} (the committed spec must build to compare against it)`);
  const [server] = normalize(specs, []);
  const tools = manifestTools(planServer(server, { outRoot: "out" }));
  return {
    generator: { name: "kervan", version: "" },
    server: { name: server.name, version: server.version },
    inputs: {},
    sourceHash: "",
    inputHash: "",
    capabilities: serverCapabilities(tools, server),
    tools,
    bundle: { path: "server.mjs", sha256: "", packages: {} },
  };
}

export function reimportChangelog(existingPath: string, existing: string, next: string): { log: Changelog; text: string; breaking: boolean } {
  const committed = manifestOf(existingPath, existing);
  const log = changelog(committed, manifestOf(existingPath, next));
  log.server = committed.server.name;
  log.from = "committed spec";
  log.to = "new import";
  return { log, text: renderChangelog(log), breaking: log.changes.some((c) => c.breaking) };
}
