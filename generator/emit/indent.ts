// Lays out json-schema-to-typescript's unformatted output: indentation by bracket depth, `;` after
// members and aliases, `{}` for empty objects. A prettier pass over the types of a 1,000-tool
// server took seconds; this is linear and gives the same layout for the shapes json2ts prints
// (one member per line, JSDoc blocks, unions, arrays).

const STRINGS = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
const ENDS_VALUE = /[A-Za-z0-9_\]\)"'>?}]$/;

function depthChange(line: string): number {
  let d = 0;
  for (const c of line.replace(STRINGS, '""')) {
    if (c === "{" || c === "[" || c === "(") d++;
    else if (c === "}" || c === "]" || c === ")") d--;
  }
  return d;
}

/** `name: (A | B)` -> `name: A | B` when the parentheses hold the whole type. */
function unwrap(line: string): string {
  const m = /^(.*?: )\((.*)\)(;?)$/.exec(line);
  if (!m || isComment(line)) return line;
  let depth = 0;
  for (const c of m[2].replace(STRINGS, '""')) {
    if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return line; // the parentheses close before the end
  }
  return depth === 0 ? `${m[1]}${m[2]}${m[3]}` : line;
}

const isComment = (line: string) => line.startsWith("/*") || line.startsWith("*");

export function indentTypes(source: string): string {
  const lines: string[] = [];
  for (const raw of source.split("\n")) {
    const line = unwrap(raw.trim());
    // `{` followed (across blank lines) by `}` is an empty object type.
    if (line.startsWith("}")) {
      let j = lines.length - 1;
      while (j >= 0 && lines[j] === "") j--;
      if (j >= 0 && !isComment(lines[j]) && lines[j].endsWith("{")) {
        lines.length = j + 1;
        lines[j] += line;
        continue;
      }
    }
    lines.push(line);
  }
  // The next code line after each line, found in one backward pass (a union may continue there).
  const next: string[] = new Array(lines.length).fill("");
  for (let i = lines.length - 2, seen = ""; i >= 0; i--) {
    const l = lines[i + 1];
    if (l && !isComment(l)) seen = l;
    next[i] = seen;
  }
  const out: string[] = [];
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) {
      if (depth === 0 && out.length && out[out.length - 1] !== "") out.push("");
      continue;
    }
    if (isComment(line)) {
      out.push("  ".repeat(depth) + (line.startsWith("*") ? ` ${line}` : line));
      continue;
    }
    const closes = /^[}\])]/.test(line) ? 1 : 0;
    const level = Math.max(0, depth - closes);
    depth = Math.max(0, depth + depthChange(line));
    const continues = /^[|&]/.test(next[i]);
    // A member or alias ends here; an interface's own closing brace (back at depth 0) takes none.
    const needsSemi = ENDS_VALUE.test(line) && !continues && !(closes && depth === 0 && line === "}") && !line.startsWith("export interface");
    out.push("  ".repeat(level) + line + (needsSemi && !line.endsWith(";") ? ";" : ""));
  }
  return out.join("\n").replace(/\n*$/, "\n");
}
