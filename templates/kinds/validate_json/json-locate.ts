// Finds where JSON text first goes wrong. JSON.parse's messages do not always carry a position (V8
// says "Unexpected token 'o', ... is not valid JSON"), so the failure path scans the text itself.
// Only used after JSON.parse has failed; a small recursive-descent recognizer, no values built.

const WS = new Set([" ", "\t", "\n", "\r"]);

class Fail {
  constructor(readonly at: number) {}
}

class Scanner {
  i = 0;
  constructor(private readonly t: string) {}

  private ws(): void {
    while (this.i < this.t.length && WS.has(this.t[this.i])) this.i++;
  }
  private fail(): never {
    throw new Fail(this.i);
  }

  document(): void {
    this.ws();
    this.value(0);
    this.ws();
    if (this.i < this.t.length) this.fail();
  }

  private value(depth: number): void {
    if (depth > 5000) this.fail();
    const c = this.t[this.i];
    if (c === "{") return this.object(depth);
    if (c === "[") return this.array(depth);
    if (c === '"') return this.string();
    if (c === "-" || (c >= "0" && c <= "9")) return this.number();
    for (const word of ["true", "false", "null"]) {
      if (this.t.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    this.fail();
  }

  private object(depth: number): void {
    this.i++;
    this.ws();
    if (this.t[this.i] === "}") return void this.i++;
    for (;;) {
      this.ws();
      if (this.t[this.i] !== '"') this.fail();
      this.string();
      this.ws();
      if (this.t[this.i] !== ":") this.fail();
      this.i++;
      this.ws();
      this.value(depth + 1);
      this.ws();
      if (this.t[this.i] === "}") return void this.i++;
      if (this.t[this.i] !== ",") this.fail();
      this.i++;
      this.ws();
    }
  }

  private array(depth: number): void {
    this.i++;
    this.ws();
    if (this.t[this.i] === "]") return void this.i++;
    for (;;) {
      this.ws();
      this.value(depth + 1);
      this.ws();
      if (this.t[this.i] === "]") return void this.i++;
      if (this.t[this.i] !== ",") this.fail();
      this.i++;
      this.ws();
    }
  }

  private string(): void {
    this.i++;
    while (this.i < this.t.length) {
      const c = this.t[this.i];
      if (c === '"') return void this.i++;
      if (c < " ") this.fail();
      if (c === "\\") {
        const e = this.t[this.i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(this.t.slice(this.i + 2, this.i + 6))) this.fail();
          this.i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) this.fail();
        this.i += 2;
        continue;
      }
      this.i++;
    }
    this.fail();
  }

  private number(): void {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.t.slice(this.i, this.i + 400));
    if (!m) this.fail();
    this.i += m[0].length;
  }
}

/** Offset of the first syntax error in `text` (text.length when it ends too early). */
export function locateJsonError(text: string): number {
  try {
    new Scanner(text).document();
    return text.length;
  } catch (e) {
    if (e instanceof Fail) return Math.min(e.at, text.length);
    return text.length; // stack exhausted on absurd nesting: report the end
  }
}
