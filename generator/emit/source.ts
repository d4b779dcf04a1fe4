// Prints a TypeScript module from code values and a few declaration shapes, as plain strings.
// The layout is the one ts-morph's structure printer (with code-block-writer) gave the emitted
// files before, kept byte for byte: statements on their own lines, a blank line after a statement
// that ends with `}` and before a function, two-space indentation inside a function body.
// Hand-written because the emitters only ever print these shapes: loading ts-morph (and the
// TypeScript compiler with it) and re-parsing every printed file cost more than the rest of the
// emit for a spec with a thousand tools.
// Emitters hand over code values (generator/shared/codegen.ts); they become text only here.
import { commentText, type Code, type Name } from "../shared/codegen.js";

/** `import { a, b } from "m";`, `import type { … }` or `import * as ns from "m";` (fixed names, never user text). */
export interface ImportDecl {
  kind: "import";
  moduleSpecifier: string;
  namedImports?: string[];
  namespaceImport?: string;
  isTypeOnly?: boolean;
}

/** `/** doc *\/ export type Name = Type;` */
export interface TypeAliasDecl {
  kind: "typeAlias";
  name: Name;
  type: Code;
  isExported: boolean;
  docs?: string[];
}

/** `/** doc *\/ export function name(): returnType { statements }` (statements one a line, indented). */
export interface FunctionDecl {
  kind: "function";
  name: Name;
  isExported: boolean;
  returnType: Code;
  docs?: string[];
  statements: Code[];
}

export type WriterFunction = (w: SourceWriter) => void;
export type Statement = Code | WriterFunction | ImportDecl | TypeAliasDecl | FunctionDecl;

const WHITESPACE = /\s/;

/** Appends text and answers the questions the layout rules ask about what was written last. */
export class SourceWriter {
  private readonly parts: string[] = [];
  /** The last two characters written. */
  private tail = "";
  /** The last character written that is not whitespace. */
  private lastSolid = "";
  private level = 0;
  private firstLineOfBlock = true;

  private append(text: string): void {
    if (!text) return;
    this.parts.push(text);
    this.tail = (this.tail + text).slice(-2);
    for (let i = text.length - 1; i >= 0; i--) {
      if (!WHITESPACE.test(text[i]!)) {
        this.lastSolid = text[i]!;
        break;
      }
    }
  }

  private lastChar(): string | undefined {
    return this.tail ? this.tail[this.tail.length - 1] : undefined;
  }

  isLastNewLine(): boolean {
    return this.lastChar() === "\n";
  }

  isLastSpace(): boolean {
    return this.lastChar() === " ";
  }

  private isLastBlankLine(): boolean {
    return this.tail === "\n\n";
  }

  isAtStartOfFirstLineOfBlock(): boolean {
    return this.firstLineOfBlock && (this.isLastNewLine() || this.lastChar() === undefined);
  }

  lastNonWhitespaceIsCloseBrace(): boolean {
    return this.lastSolid === "}";
  }

  newLine(): this {
    this.append("\n");
    this.firstLineOfBlock = false;
    return this;
  }

  newLineIfLastNot(): this {
    if (!this.isLastNewLine()) this.newLine();
    return this;
  }

  blankLineIfLastNot(): this {
    if (!this.isLastBlankLine()) this.newLineIfLastNot().newLine();
    return this;
  }

  /** Text as it is; each line that starts inside a block is indented to the block's level. */
  write(text: string): this {
    const lines = text.split(/\r?\n/);
    lines.forEach((line, i) => {
      if (i > 0) this.newLine();
      if (!line) return;
      if (this.level && (this.isLastNewLine() || this.lastChar() === undefined)) this.append("  ".repeat(this.level));
      this.append(line);
    });
    return this;
  }

  writeLine(text: string): this {
    if (this.lastChar() !== undefined) this.newLineIfLastNot();
    return this.write(text).newLine();
  }

  /** `{`, the body one level deeper, `}`. */
  block(body: () => void): this {
    this.write("{");
    if (this.lastChar() !== undefined) this.newLineIfLastNot();
    this.level += 1;
    this.firstLineOfBlock = true;
    body();
    this.firstLineOfBlock = false;
    this.level -= 1;
    return this.newLineIfLastNot().write("}");
  }

  toString(): string {
    return this.parts.join("");
  }
}

/** A module specifier in double quotes. */
function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, "\\$&").replace(/\r?\n/g, (nl) => (nl.length === 2 ? "\\r\\n\\\n" : "\\n\\\n"))}"`;
}

function docs(w: SourceWriter, lines: string[] | undefined): void {
  for (const doc of lines ?? []) {
    const parts = doc.split(/\r?\n/);
    if (parts.length <= 1) w.write(`/** ${doc}`);
    else {
      w.write("/**").newLine();
      for (const line of parts.slice(parts[0] ? 0 : 1)) w.write(line ? ` * ${line}` : " *").newLine();
    }
    if (!w.isLastSpace()) w.write(" ");
    w.write("*/").newLine();
  }
}

function printStatement(w: SourceWriter, s: Statement): void {
  if (typeof s === "function") return s(w);
  if (!("kind" in s)) return void w.write(s.toString());
  if (s.kind === "import") {
    const names = s.namedImports?.length ? ` { ${s.namedImports.join(", ")} }` : "";
    const ns = s.namespaceImport !== undefined ? ` * as ${s.namespaceImport}` : "";
    w.write(`import${s.isTypeOnly ? " type" : ""}${ns}${names}${ns || names ? " from" : ""} ${quoted(s.moduleSpecifier)};`);
  } else if (s.kind === "typeAlias") {
    docs(w, s.docs);
    w.write(`${s.isExported ? "export " : ""}type ${s.name} = ${s.type};`);
  } else {
    if (!w.isAtStartOfFirstLineOfBlock()) w.blankLineIfLastNot();
    docs(w, s.docs);
    w.write(`${s.isExported ? "export " : ""}function ${s.name}(): ${s.returnType} `).block(() => printStatements(w, s.statements));
  }
}

function printStatements(w: SourceWriter, statements: Statement[]): void {
  for (const s of statements) {
    if (w.lastNonWhitespaceIsCloseBrace()) w.blankLineIfLastNot();
    else if (!w.isAtStartOfFirstLineOfBlock()) w.newLineIfLastNot();
    printStatement(w, s);
  }
}

/** The header plus the printed statements, ending with one newline. */
export function emitSource(head: Code, statements: Statement[]): string {
  const w = new SourceWriter();
  printStatements(w, statements);
  if (!w.isAtStartOfFirstLineOfBlock() && !w.isLastNewLine()) w.newLine();
  return `${head}\n\n${w}`;
}

/** An import of fixed names (the generator's own, never user text) from a module. */
export function importDecl(moduleSpecifier: string, names: string[], isTypeOnly = false): ImportDecl {
  return { kind: "import", moduleSpecifier, namedImports: names, isTypeOnly };
}

/**
 * `export const name: type = value;` written as text. `doc` is already docComment() text;
 * `comment` lines become `//` lines (made safe here) between the doc and the declaration.
 */
export function constStatement(name: Name, type: Code | undefined, value: Code, doc?: string, comment: string[] = []): WriterFunction {
  return (w) => {
    w.blankLineIfLastNot(); // one blank line between top-level declarations, for reviewers
    if (doc) w.writeLine(`/** ${doc} */`);
    for (const line of comment) w.writeLine(`// ${commentText(line)}`);
    w.write(`export const ${name}${type ? `: ${type}` : ""} = ${value};`);
  };
}
