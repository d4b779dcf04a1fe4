// Python `re` pattern syntax (str patterns, no flags) translated to a JavaScript `u`-mode RegExp source.
// A recursive-descent parser that mirrors CPython 3.11's re._parser, so patterns Python rejects are
// refused too; constructs the tool contract forbids are refused with their own kind.
import { categoryAtom, categoryBody, literal, NOT_WORD_BOUNDARY, WORD_BOUNDARY, type Category } from "./unicode.js";

export type PyRegexRefusalKind =
  | "inline-flags" | "look-behind" | "backreference" | "atomic-group"
  | "possessive" | "conditional" | "named-character" | "invalid";

export interface PyRegexRefusal {
  kind: PyRegexRefusalKind;
  /** Python's own words for "invalid", or the construct found. */
  detail: string;
  /** Code-point offset in the pattern, as Python counts it. */
  position: number;
}

/**
 * cheapDegree: for a pattern that is one flat sequence of single-character atoms and anchors (no
 * groups, alternation or look-ahead), k such that backtracking a string of n characters costs at most
 * about (n+1)^k steps (k = free quantifiers + 2: one factor per quantifier's choice of count, one for
 * the start position, one for the scan). null when no such bound is known.
 */
export type PyRegexTranslation = { ok: true; js: string; cheapDegree: number | null } | ({ ok: false } & PyRegexRefusal);

type ItemKind = "atom" | "anchor" | "repeat" | "assert";
interface Item { js: string; kind: ItemKind }
type ClassItem = { lit: number } | { lo: number; hi: number } | { cat: Category };

class Stop {
  constructor(readonly refusal: PyRegexRefusal) {}
}

const MAXREPEAT = 4294967295; // sre's limit: counts must be below it
const DIGITS = /^[0-9]$/;
const OCT = /^[0-7]$/;
const HEX = /^[0-9a-fA-F]$/;
const ASCII_LETTER = /^[A-Za-z]$/;
const FLAG_LETTERS = "aiLmsux";
const CONTROL: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11, "\\": 92 };
const CATEGORIES = "dDwWsS";

class Parser {
  private i = 0;
  private groups = 1; // next capturing group number, as sre's state.groups
  private readonly open = new Set<number>();
  private readonly names = new Map<string, number>();
  /** Set by anything that breaks the flat-sequence shape cheapDegree needs. */
  complex = false;
  freeQuantifiers = 0;
  constructor(private readonly cps: string[]) {}

  run(): string {
    const js = this.sub(0);
    if (this.i < this.cps.length) this.invalid("unbalanced parenthesis");
    return js;
  }

  private peek(): string | undefined { return this.cps[this.i]; }
  private get(): string | undefined { return this.cps[this.i++]; }
  private match(ch: string): boolean {
    if (this.cps[this.i] !== ch) return false;
    this.i += 1;
    return true;
  }
  private getWhile(n: number, re: RegExp): string {
    let out = "";
    while (out.length < n && this.i < this.cps.length && re.test(this.cps[this.i])) out += this.cps[this.i++];
    return out;
  }
  private refuse(kind: PyRegexRefusalKind, detail: string, position = this.i): never {
    throw new Stop({ kind, detail, position });
  }
  private invalid(detail: string, position = this.i): never {
    return this.refuse("invalid", detail, position);
  }

  /** Alternation: branches separated by `|`, up to an unconsumed `)` or the end. */
  private sub(depth: number): string {
    const branches: string[] = [];
    do branches.push(this.seq(depth, depth === 0 && branches.length === 0));
    while (this.match("|"));
    if (branches.length > 1) this.complex = true;
    return branches.join("|");
  }

  private seq(depth: number, first: boolean): string {
    const items: Item[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === "|" || c === ")") break;
      const start = this.i++;
      if (c === "\\") items.push(this.escape(start));
      else if (c === "[") items.push({ kind: "atom", js: this.charClass(start) });
      else if (c === "(") {
        const item = this.group(start, depth, first && items.length === 0);
        if (item) items.push(item);
      } else if (c === "^") items.push({ kind: "anchor", js: "^" });
      else if (c === "$") items.push({ kind: "anchor", js: "(?=\\n?$)" }); // Python $ also matches before a final \n
      else if (c === ".") items.push({ kind: "atom", js: "[^\\n]" }); // Python . excludes only \n
      else if (c === "*" || c === "+" || c === "?" || c === "{") this.quantifier(c, start, items);
      else items.push({ kind: "atom", js: literal(c.codePointAt(0)!, false) });
    }
    return items.map((it) => it.js).join("");
  }

  private quantifier(c: string, start: number, items: Item[]): void {
    let quant = c;
    if (c === "{") {
      if (this.peek() === "}") return void items.push({ kind: "atom", js: "\\{" });
      const here = this.i;
      const lo = this.getWhile(Infinity, DIGITS);
      const comma = this.match(",");
      const hi = comma ? this.getWhile(Infinity, DIGITS) : lo;
      if (!this.match("}")) {
        this.i = here; // not a quantifier: a literal brace, as Python reads it
        return void items.push({ kind: "atom", js: "\\{" });
      }
      const min = lo ? Number(lo) : 0;
      const max = hi ? Number(hi) : Infinity;
      if (min >= MAXREPEAT || (hi && max >= MAXREPEAT)) this.invalid("the repetition number is too large", here);
      if (max < min) this.invalid("min repeat greater than max repeat", here);
      quant = !hi ? (min === 0 ? "*" : `{${min},}`) : comma ? `{${min},${max}}` : `{${min}}`;
    }
    const last = items[items.length - 1];
    if (!last || last.kind === "anchor") this.invalid("nothing to repeat", start);
    if (!/^\{\d+\}$/.test(quant)) this.freeQuantifiers++; // an exact count offers no choice
    if (last.kind === "repeat") this.invalid("multiple repeat", start);
    let lazy = "";
    if (this.match("?")) lazy = "?";
    else if (this.peek() === "+") this.refuse("possessive", this.cps.slice(start, this.i + 1).join(""), start);
    // JS refuses a quantified look-ahead; a non-capturing group around it means the same.
    const atom = last.kind === "assert" ? `(?:${last.js})` : last.js;
    items[items.length - 1] = { kind: "repeat", js: atom + quant + lazy };
  }

  private groupName(terminator: string): string {
    let name = "";
    for (;;) {
      const ch = this.get();
      if (ch === undefined) this.invalid(`missing ${terminator}, unterminated name`);
      if (ch === terminator) break;
      name += ch;
    }
    if (!name) this.invalid("missing group name");
    if (!/^[\p{ID_Start}_][\p{ID_Continue}]*$/u.test(name)) this.invalid(`bad character in group name '${name}'`);
    return name;
  }

  /** `(` already read. Returns null for a comment, which adds nothing. */
  private group(start: number, depth: number, atStart: boolean): Item | null {
    this.complex = true;
    let capture = true;
    let name: string | null = null;
    if (this.match("?")) {
      const ch = this.get();
      if (ch === undefined) this.invalid("unexpected end of pattern");
      if (ch === "P") {
        if (this.match("<")) name = this.groupName(">");
        else if (this.match("=")) {
          const ref = this.groupName(")");
          const gid = this.names.get(ref);
          if (gid === undefined) this.invalid(`unknown group name '${ref}'`);
          if (this.open.has(gid)) this.invalid("cannot refer to an open group");
          this.refuse("backreference", `(?P=${ref})`, start);
        } else {
          const next = this.get();
          if (next === undefined) this.invalid("unexpected end of pattern");
          this.invalid(`unknown extension ?P${next}`, start + 1);
        }
      } else if (ch === ":") capture = false;
      else if (ch === "#") {
        for (;;) {
          const c = this.get();
          if (c === undefined) this.invalid("missing ), unterminated comment", start);
          if (c === ")") return null; // comments vanish, as in Python
        }
      } else if (ch === "=" || ch === "!") {
        const inner = this.sub(depth + 1);
        if (!this.match(")")) this.invalid("missing ), unterminated subpattern", start);
        return { kind: "assert", js: `(?${ch}${inner})` };
      } else if (ch === "<") {
        const next = this.get();
        if (next === undefined) this.invalid("unexpected end of pattern");
        if (next === "=" || next === "!") this.refuse("look-behind", `(?<${next}`, start);
        this.invalid(`unknown extension ?<${next}`, start + 1);
      } else if (ch === "(") this.refuse("conditional", "(?(", start);
      else if (ch === ">") this.refuse("atomic-group", "(?>", start);
      else if (FLAG_LETTERS.includes(ch) || ch === "-") this.flags(ch, start, depth === 0 && atStart);
      else this.invalid(`unknown extension ?${ch}`, start + 1);
    }
    let gid = 0;
    if (capture) {
      gid = this.groups++;
      if (name !== null) {
        if (this.names.has(name)) this.invalid(`redefinition of group name '${name}' as group ${gid}; was group ${this.names.get(name)}`);
        this.names.set(name, gid);
      }
      this.open.add(gid);
    }
    const inner = this.sub(depth + 1);
    if (!this.match(")")) this.invalid("missing ), unterminated subpattern", start);
    this.open.delete(gid);
    // Names do not matter to a test(); plain groups keep JS free of Python-only name rules.
    return { kind: "atom", js: capture ? `(${inner})` : `(?:${inner})` };
  }

  /** `(?` plus a flag letter or `-`: always refused, with Python's own error when the syntax is broken. */
  private flags(first: string, start: number, atStart: boolean): never {
    let ch: string | undefined = first;
    const text = () => this.cps.slice(start, this.i).join("");
    if (ch !== "-") {
      for (;;) {
        if (ch === "L") this.invalid("bad inline flags: cannot use 'L' flag with a str pattern");
        ch = this.get();
        if (ch === undefined) this.invalid("missing -, : or )");
        if (ch === ")" || ch === "-" || ch === ":") break;
        if (!FLAG_LETTERS.includes(ch)) this.invalid(/\p{L}/u.test(ch) ? "unknown flag" : "missing -, : or )");
      }
    }
    if (ch === ")") {
      if (!atStart) this.invalid("global flags not at the start of the expression", start);
      this.refuse("inline-flags", text(), start);
    }
    if (ch === "-") {
      ch = this.get();
      if (ch === undefined) this.invalid("missing flag");
      if (!FLAG_LETTERS.includes(ch)) this.invalid(/\p{L}/u.test(ch) ? "unknown flag" : "missing flag");
      for (;;) {
        ch = this.get();
        if (ch === undefined) this.invalid("missing :");
        if (ch === ":") break;
        if (!FLAG_LETTERS.includes(ch)) this.invalid(/\p{L}/u.test(ch) ? "unknown flag" : "missing :");
      }
    }
    this.refuse("inline-flags", text(), start);
  }

  /** Escapes shared by both contexts: hex, \u, \U and \N; null when `c` is none of them. */
  private codeEscape(c: string, start: number): number | null {
    const widths: Record<string, number> = { x: 2, u: 4, U: 8 };
    if (c in widths) {
      const hex = this.getWhile(widths[c], HEX);
      const text = `\\${c}${hex}`;
      if (hex.length !== widths[c]) this.invalid(`incomplete escape ${text}`, start);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) this.invalid(`bad escape ${text}`, start);
      return cp;
    }
    if (c === "N") {
      if (this.peek() === "{") this.refuse("named-character", "\\N{...}", start);
      this.invalid("missing {", this.i);
    }
    return null;
  }

  private escape(start: number): Item {
    const c = this.get();
    if (c === undefined) this.invalid("bad escape (end of pattern)", start);
    if (c === "A") return { kind: "anchor", js: "^" };
    if (c === "Z") return { kind: "anchor", js: "$" };
    if (c === "b") return { kind: "anchor", js: WORD_BOUNDARY };
    if (c === "B") return { kind: "anchor", js: NOT_WORD_BOUNDARY };
    if (CATEGORIES.includes(c)) return { kind: "atom", js: categoryAtom(c as Category) };
    if (c in CONTROL) return { kind: "atom", js: literal(CONTROL[c], false) };
    const code = this.codeEscape(c, start);
    if (code !== null) return { kind: "atom", js: literal(code, false) };
    if (c === "0") return { kind: "atom", js: literal(parseInt(c + this.getWhile(2, OCT), 8), false) };
    if (DIGITS.test(c)) {
      // Octal escape or group reference, decided exactly as sre does.
      let esc = c;
      if (DIGITS.test(this.peek() ?? "")) {
        esc += this.get();
        if (OCT.test(esc[0]) && OCT.test(esc[1]) && OCT.test(this.peek() ?? "")) {
          esc += this.get();
          const value = parseInt(esc, 8);
          if (value > 0o377) this.invalid(`octal escape value \\${esc} outside of range 0-0o377`, start);
          return { kind: "atom", js: literal(value, false) };
        }
      }
      const group = Number(esc);
      if (group < this.groups) {
        if (this.open.has(group)) this.invalid("cannot refer to an open group", start);
        this.refuse("backreference", `\\${esc}`, start);
      }
      this.invalid(`invalid group reference ${group}`, start + 1);
    }
    if (ASCII_LETTER.test(c)) this.invalid(`bad escape \\${c}`, start);
    return { kind: "atom", js: literal(c.codePointAt(0)!, false) };
  }

  private classEscape(start: number): ClassItem {
    const c = this.get();
    if (c === undefined) this.invalid("unterminated character set");
    if (c === "b") return { lit: 8 }; // backspace inside a class
    if (c in CONTROL) return { lit: CONTROL[c] };
    if (CATEGORIES.includes(c)) return { cat: c as Category };
    const code = this.codeEscape(c, start);
    if (code !== null) return { lit: code };
    if (OCT.test(c)) {
      const esc = c + this.getWhile(2, OCT);
      const value = parseInt(esc, 8);
      if (value > 0o377) this.invalid(`octal escape value \\${esc} outside of range 0-0o377`, start);
      return { lit: value };
    }
    if (DIGITS.test(c) || ASCII_LETTER.test(c)) this.invalid(`bad escape \\${c}`, start);
    return { lit: c.codePointAt(0)! };
  }

  private charClass(start: number): string {
    const negate = this.match("^");
    const set: ClassItem[] = [];
    for (;;) {
      const at = this.i;
      const c = this.get();
      if (c === undefined) this.invalid("unterminated character set", start);
      if (c === "]" && set.length > 0) break; // a leading ] is literal
      const code1 = c === "\\" ? this.classEscape(at) : { lit: c.codePointAt(0)! };
      if (!this.match("-")) {
        set.push(code1);
        continue;
      }
      const thatAt = this.i;
      const that = this.get();
      if (that === undefined) this.invalid("unterminated character set", start);
      if (that === "]") {
        set.push(code1, { lit: 45 });
        break;
      }
      const code2 = that === "\\" ? this.classEscape(thatAt) : { lit: that.codePointAt(0)! };
      const range = this.cps.slice(at, this.i).join("");
      if (!("lit" in code1) || !("lit" in code2) || code2.lit < code1.lit) this.invalid(`bad character range ${range}`, at);
      set.push({ lo: code1.lit, hi: code2.lit });
    }
    const js = emitClass(set, negate);
    if (js.startsWith("(")) this.complex = true; // complements became alternatives, which may overlap
    return js;
  }
}

/** Builds the JS class; \W and \S cannot sit inside [...] so they become alternatives. */
function emitClass(set: ClassItem[], negate: boolean): string {
  let body = "";
  const complements: string[] = [];
  for (const item of set) {
    if ("lit" in item) body += literal(item.lit, true);
    else if ("lo" in item) body += `${literal(item.lo, true)}-${literal(item.hi, true)}`;
    else {
      const inner = categoryBody(item.cat);
      if (inner !== null) body += inner;
      else complements.push(categoryAtom(item.cat));
    }
  }
  if (complements.length === 0) return `[${negate ? "^" : ""}${body}]`;
  const alternatives = (body ? [`[${body}]`] : []).concat(complements).join("|");
  return negate ? `(?:(?!${alternatives})[^])` : `(?:${alternatives})`;
}

/** Translates one Python `re` pattern; never throws. */
export function translatePythonPattern(pattern: string): PyRegexTranslation {
  try {
    const parser = new Parser(Array.from(pattern));
    const js = parser.run();
    new RegExp(js, "u"); // a translation JS refuses is our bug; report it rather than crash later
    return { ok: true, js, cheapDegree: parser.complex ? null : parser.freeQuantifiers + 2 };
  } catch (e) {
    if (e instanceof Stop) return { ok: false, ...e.refusal };
    return { ok: false, kind: "invalid", detail: `cannot be translated (${(e as Error).message})`, position: 0 };
  }
}
