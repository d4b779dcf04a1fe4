// One in-memory ts-morph project for the whole run: creating it is the expensive part.
// Files are created from structures in one call, so ts-morph prints each file once instead of
// re-parsing it after every added declaration (which grows with the square of a file's size).
import { IndentationText, NewLineKind, Project, QuoteKind, StructureKind, type StatementStructures, type WriterFunction } from "ts-morph";

let project: Project | undefined;

export function tsProject(): Project {
  project ??= new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Double, newLineKind: NewLineKind.LineFeed },
  });
  return project;
}

export type Statement = string | WriterFunction | StatementStructures;

/** The header plus the printed statements; the file is dropped from the project after. */
export function emitSource(path: string, head: string, statements: Statement[]): string {
  const file = tsProject().createSourceFile(path, { statements }, { overwrite: true });
  const text = file.getFullText();
  tsProject().removeSourceFile(file);
  return `${head}\n${text}`;
}

export function importDecl(moduleSpecifier: string, names: string[], isTypeOnly = false): StatementStructures {
  return { kind: StructureKind.ImportDeclaration, moduleSpecifier, namedImports: names, isTypeOnly };
}

/**
 * `export const name: type = value;` written as text: ts-morph indents multi-line variable
 * initializers by an extra level, the statement writer does not.
 */
export function constStatement(name: string, type: string | undefined, value: string, doc?: string): WriterFunction {
  return (w) => {
    w.blankLineIfLastNot(); // one blank line between top-level declarations, for reviewers
    if (doc) w.writeLine(`/** ${doc} */`);
    w.write(`export const ${name}${type ? `: ${type}` : ""} = ${value};`);
  };
}
