// Server-wide capabilities: the union of what each tool's facts declare. Used by the manifest
// builder and by the changelog (which derives them for older manifests that lack the section).
import type { Json } from "../../templates/runtime/types.js";
import type { Capabilities, ManifestTool } from "./types.js";

const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const strings = (v: Json | undefined): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

export function capabilitiesOf(tools: ManifestTool[]): Capabilities {
  const commands: string[] = [];
  const hosts: string[] = [];
  const env: string[] = [];
  const secrets: string[] = [];
  const pathRoots: string[] = [];
  const shellTools: string[] = [];
  for (const t of tools) {
    const f = t.facts ?? {};
    if (typeof f.command === "string") commands.push(f.command);
    if (typeof f.host === "string") hosts.push(f.host);
    env.push(...strings(f.env));
    secrets.push(...strings(f.secrets));
    const paths = f.paths as { allow?: Json } | null | undefined;
    if (paths && typeof paths === "object") pathRoots.push(...strings(paths.allow));
    if (f.shell === true) shellTools.push(t.name);
  }
  return {
    commands: sorted(commands),
    hosts: sorted(hosts),
    env: sorted(env),
    secrets: sorted(secrets),
    pathRoots: sorted(pathRoots),
    shellTools: sorted(shellTools),
  };
}
