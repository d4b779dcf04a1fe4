// The working tree the escape corpus runs against: a project with a .env and a .git, symlinks
// pointing outside it, a sibling project and a home-like directory next to it. Every secret holds
// a distinct token; a visible file holds another, so each read case also proves it read something.
// Hard links give denied files second names inside the project (one to .env, one to a file in .git).
import { linkSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const VISIBLE = "tok-visible-3c1e";
/** Tokens that must never appear in any output of a sandboxed call. */
export const SECRETS = {
  env: "tok-env-8d21",
  git: "tok-git-51ab",
  late: "tok-late-0e77",
  sibling: "tok-sibling-9f02",
  outside: "tok-outside-4a6c",
  home: "tok-home-77d3",
  config: "tok-config-6b14",
  serverEnv: "tok-server-env-2b90",
};
/** Names that exist only outside the project: none may appear in a listing. */
export const OUTSIDE_NAMES = ["sibling-project", "outside.txt", "home-like", "id_ed25519"];

export interface Tree {
  root: string;
  project: string;
  home: string;
  sibling: string;
}

export function makeTree(): Tree {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "kervan-escape-")));
  const project = join(root, "project");
  const sibling = join(root, "sibling-project");
  const home = join(root, "home-like");
  const dirs = [project, join(project, "src"), join(project, ".git"), join(project, "out"), join(project, "config"), join(project, ".vscode"), join(project, "node_modules", ".bin"), sibling, join(home, ".ssh")];
  for (const d of dirs) mkdirSync(d, { recursive: true });
  writeFileSync(join(project, ".env"), `API_KEY=${SECRETS.env}\n`);
  writeFileSync(join(project, ".git", "config"), `[remote]\n  token = ${SECRETS.git}\n`);
  writeFileSync(join(project, "src", "visible.txt"), `${VISIBLE}\n`);
  // A denied file in a folder the project may write: its folder must not be renamed away from the mask.
  writeFileSync(join(project, "config", "secrets.env"), `TOKEN=${SECRETS.config}\n`);
  // Run-later paths: read by an editor or npm outside the sandbox later.
  writeFileSync(join(project, ".vscode", "tasks.json"), "{}\n");
  writeFileSync(join(project, "node_modules", ".bin", "tool"), "#!/bin/sh\necho tool\n", { mode: 0o755 });
  writeFileSync(join(sibling, "secret.txt"), `${SECRETS.sibling}\n`);
  writeFileSync(join(root, "outside.txt"), `${SECRETS.outside}\n`);
  writeFileSync(join(home, ".ssh", "id_ed25519"), `${SECRETS.home}\n`);
  symlinkSync("../sibling-project", join(project, "link-dir"));
  symlinkSync(join(root, "outside.txt"), join(project, "link-file"));
  symlinkSync("../.env", join(project, "src", "env-link"));
  linkSync(join(project, ".env"), join(project, "src", "notes.txt"));
  linkSync(join(project, ".git", "config"), join(project, "settings.ini"));
  return { root, project, home, sibling };
}
