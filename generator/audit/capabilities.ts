// Server-wide capabilities: the union of the tools' effects, plus the secrets the server itself reads (bearer
// tokens). Used by the manifest builder and by the changelog (which derives them for older manifests).
import { sortedUnique } from "../shared/order.js";
import { effectsOf } from "./legacy.js";
import type { Capabilities, ManifestTool } from "./types.js";

/** `serverSecrets`: variables the server itself reads as secrets (its static bearer tokens), beside the tools'. */
export function capabilitiesOf(tools: ManifestTool[], serverSecrets: readonly string[] = []): Capabilities {
  const effects = tools.map((t) => ({ name: t.name, e: effectsOf(t) }));
  return {
    commands: sortedUnique(effects.flatMap(({ e }) => e.commands)),
    hosts: sortedUnique(effects.flatMap(({ e }) => e.hosts)),
    env: sortedUnique([...effects.flatMap(({ e }) => e.env), ...serverSecrets]),
    secrets: sortedUnique([...effects.flatMap(({ e }) => e.secrets), ...serverSecrets]),
    pathRoots: sortedUnique(effects.flatMap(({ e }) => e.pathRoots)),
    shellTools: sortedUnique(effects.filter(({ e }) => e.shell).map(({ name }) => name)),
  };
}
