// Manifests written before tools recorded their effects carried the same knowledge in their kind
// facts under fixed names (command, host, env, secrets, shell, paths, method). This reads those
// names back into Effects, so the changelog can compare a manifest from an older revision of out/.
import type { Json } from "../../templates/runtime/types.js";
import type { Effects, ManifestTool } from "./types.js";
import { isObject } from "../shared/object.js";

const strings = (v: Json | undefined): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A tool's effects: as recorded, or read from an older manifest's facts. */
export function effectsOf(t: ManifestTool): Effects {
  if (t.effects) return t.effects;
  const f = t.facts ?? {};
  const paths = isObject(f.paths) ? f.paths : undefined;
  const method = typeof f.method === "string" ? f.method : undefined;
  return {
    commands: typeof f.command === "string" ? [f.command] : [],
    hosts: typeof f.host === "string" ? [f.host] : [],
    env: strings(f.env),
    secrets: strings(f.secrets),
    shell: f.shell === true,
    // Older manifests said so for built-ins only; a command reached both, an HTTP call the network.
    filesystem: typeof f.filesystem === "boolean" ? f.filesystem : typeof f.command === "string",
    network: typeof f.network === "boolean" ? f.network : true,
    pathRoots: strings(paths?.allow),
    pathDenied: strings(paths?.deny),
    ...(method && WRITES.has(method) ? { changes: `sends ${method}` } : {}),
    ...(method && !WRITES.has(method) ? { readsOnly: `only sends ${method}` } : {}),
  };
}
