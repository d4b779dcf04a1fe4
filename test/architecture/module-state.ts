// Module-level mutable state in generator/: a TypeScript AST scan of every module's top level for
// `let`/`var` declarations and for constants that hold a fresh mutable container (a Map, a Set,
// a WeakMap, an array or object literal left empty to be filled). A build's state lives in its
// Build (generator/shared/build.ts), never in a module, so a --watch process frees it per build.
// A constant of the process computed on first use is a `const` holding once(...) (shared/once.ts).
import { readdirSync, readFileSync } from "node:fs";
import ts from "typescript";

const CONTAINERS = new Set(["Map", "Set", "WeakMap", "WeakSet", "Array"]);

/** Why a top-level declaration is mutable state, or undefined. */
function mutable(list: ts.VariableDeclarationList, d: ts.VariableDeclaration): string | undefined {
  if (!(list.flags & ts.NodeFlags.Const)) return `module-level ${list.flags & ts.NodeFlags.Let ? "let" : "var"}`;
  let init = d.initializer;
  while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))) init = init.expression;
  if (!init) return undefined;
  // A container filled once from constants and named as a constant (FILLER = new Set([...])) is a
  // read-only table; an empty one, or one named like a variable, is state.
  if (ts.isNewExpression(init) && ts.isIdentifier(init.expression) && CONTAINERS.has(init.expression.text)) {
    const table = (init.arguments?.length ?? 0) > 0 && /^[A-Z][A-Z0-9_]*$/.test(d.name.getText());
    if (!table) return `module-level new ${init.expression.text}`;
  }
  if (ts.isArrayLiteralExpression(init) && init.elements.length === 0) return "module-level empty array";
  if (ts.isObjectLiteralExpression(init) && init.properties.length === 0) return "module-level empty object";
  return undefined;
}

/** `file:line: why` for every piece of module-level mutable state in `root`'s .ts files. */
export function moduleState(root: string): string[] {
  const files = (readdirSync(root, { recursive: true }) as string[]).map((f) => `${root}/${f.split("\\").join("/")}`).filter((f) => f.endsWith(".ts")).sort();
  const found: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const d of statement.declarationList.declarations) {
        const why = mutable(statement.declarationList, d);
        if (why) found.push(`${file}:${source.getLineAndCharacterOfPosition(d.getStart()).line + 1}: ${why} ${d.name.getText()}`);
      }
    }
  }
  return found;
}
