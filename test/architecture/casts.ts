// Counts the type assertions in generator/ with the TypeScript parser: every `x as T` and `<T>x`,
// but not `as const` (which asserts nothing). Run directly to print the count per file.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

function castsIn(file: string): number {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const constant = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === "const";
      if (!constant) count += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

/** Casts per .ts file under `dir`. */
export function countCasts(dir = "generator"): Map<string, number> {
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).map((f) => join(dir, f).split("\\").join("/")).sort();
  return new Map(files.map((f) => [f, castsIn(f)]));
}

if (process.argv[1]?.endsWith("casts.ts")) {
  const counts = countCasts();
  for (const [file, n] of [...counts].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(4)} ${file}`);
  console.log(`${[...counts.values()].reduce((a, b) => a + b, 0)} casts in generator/`);
}
