// One in-memory ts-morph project for the whole run: creating it is the expensive part.
import { IndentationText, NewLineKind, Project, QuoteKind } from "ts-morph";

let project: Project | undefined;

export function tsProject(): Project {
  project ??= new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Double, newLineKind: NewLineKind.LineFeed },
  });
  return project;
}

/** Builds a source file with `build`, returns its text and drops it from the project. */
export function emitSource(path: string, build: (file: ReturnType<Project["createSourceFile"]>) => void): string {
  const file = tsProject().createSourceFile(path, "", { overwrite: true });
  build(file);
  const text = file.getFullText();
  tsProject().removeSourceFile(file);
  return text;
}
