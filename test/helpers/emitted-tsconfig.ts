// A tsconfig for type-checking one generated server's sources from a test: it extends the
// tsconfig the generator emits beside them, so the test checks exactly what an editor sees.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export function emittedTsconfig(serverDir: string): string {
  const path = join(serverDir, "tsconfig.check.json");
  writeFileSync(path, JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true } }));
  return path;
}
