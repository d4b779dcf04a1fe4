// Server-wide capabilities: the union of the tools' effects. Used by the manifest builder and by
// the changelog (which derives them for older manifests that lack the section).
import { sortedUnique } from "../shared/order.js";
import { effectsOf } from "./legacy.js";
import type { Capabilities, ManifestTool } from "./types.js";

export function capabilitiesOf(tools: ManifestTool[]): Capabilities {
  const effects = tools.map((t) => ({ name: t.name, e: effectsOf(t) }));
  return {
    commands: sortedUnique(effects.flatMap(({ e }) => e.commands)),
    hosts: sortedUnique(effects.flatMap(({ e }) => e.hosts)),
    env: sortedUnique(effects.flatMap(({ e }) => e.env)),
    secrets: sortedUnique(effects.flatMap(({ e }) => e.secrets)),
    pathRoots: sortedUnique(effects.flatMap(({ e }) => e.pathRoots)),
    shellTools: sortedUnique(effects.filter(({ e }) => e.shell).map(({ name }) => name)),
  };
}
