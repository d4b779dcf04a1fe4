// One in-memory ts-morph project for the whole run: creating it is the expensive part.
// Files are created from structures in one call, so ts-morph prints each file once instead of
// re-parsing it after every added declaration (which grows with the square of a file's size).
// Emitters hand over code values (generator/shared/codegen.ts); they become text only here.
import { IndentationText, NewLineKind, Project, QuoteKind, StructureKind, type StatementStructures, type WriterFunction } from "ts-morph";
import { commentText, type Code, type Name } from "../shared/codegen.js";

let project: Project | undefined;

export function tsProject(): Project {
  project ??= new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Double, newLineKind: NewLineKind.LineFeed },
  });
  return project;
}

export type Statement = Code | WriterFunction | StatementStructures;

/** The header plus the printed statements; the file is dropped from the project after. */
export function emitSource(path: string, head: Code, statements: Statement[]): string {
  const structures = statements.map((s) => (typeof s === "object" && !("kind" in s) ? s.toString() : s)) as (string | WriterFunction | StatementStructures)[];
  const file = tsProject().createSourceFile(path, { statements: structures }, { overwrite: true });
  const text = file.getFullText();
  tsProject().removeSourceFile(file);
  return `${head}\n\n${text}`;
}

/** An import of fixed names (the generator's own, never user text) from a module. */
export function importDecl(moduleSpecifier: string, names: string[], isTypeOnly = false): StatementStructures {
  return { kind: StructureKind.ImportDeclaration, moduleSpecifier, namedImports: names, isTypeOnly };
}

/**
 * `export const name: type = value;` written as text: ts-morph indents multi-line variable
 * initializers by an extra level, the statement writer does not. `doc` is already docComment()
 * text; `comment` lines become `//` lines (made safe here) between the doc and the declaration.
 */
export function constStatement(name: Name, type: Code | undefined, value: Code, doc?: string, comment: string[] = []): WriterFunction {
  return (w) => {
    w.blankLineIfLastNot(); // one blank line between top-level declarations, for reviewers
    if (doc) w.writeLine(`/** ${doc} */`);
    for (const line of comment) w.writeLine(`// ${commentText(line)}`);
    w.write(`export const ${name}${type ? `: ${type}` : ""} = ${value};`);
  };
}
