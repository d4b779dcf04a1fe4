// One in-memory ts-morph project for the whole run: creating it is the expensive part.
import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFile } from "ts-morph";

let project: Project | undefined;

export function tsProject(): Project {
  project ??= new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Double, newLineKind: NewLineKind.LineFeed },
  });
  return project;
}

/** Builds a source file with `build` and returns the header plus its text; the file is dropped after. */
export function emitSource(path: string, head: string, build: (file: SourceFile) => void): string {
  const file = tsProject().createSourceFile(path, "", { overwrite: true });
  build(file);
  const text = file.getFullText();
  tsProject().removeSourceFile(file);
  return `${head}\n${text}`;
}

/**
 * `export const name: type = value;` as a top-level statement. Written through the statement
 * writer because ts-morph indents multi-line variable initializers by an extra level.
 */
export function addConst(file: SourceFile, name: string, type: string | undefined, value: string, doc?: string): void {
  file.addStatements((w) => {
    if (doc) w.writeLine(`/** ${doc} */`);
    w.write(`export const ${name}${type ? `: ${type}` : ""} = ${value};`);
  });
}
