// The changelog's prompt entries. A change is breaking when a client that got the prompt before can
// now fail: the prompt is gone, an argument it may pass is gone (an unknown argument is refused), an
// argument became required, or the prompt now asks for an argument (a client without elicitation that
// leaves it out is refused). Added prompts, optional arguments and changed text are listed, not breaking.
import { toJson } from "../shared/object.js";
import { pairByKey, same, type Change } from "./change.js";
import type { ManifestPrompt } from "./types.js";

function diffPrompt(a: ManifestPrompt, b: ManifestPrompt): Change[] {
  const out: Change[] = [];
  const at = (...path: string[]) => ["Prompt " + b.name, ...path];
  for (const key of ["title", "description"] as const) {
    if (a[key] === b[key]) continue;
    out.push({ path: at(key[0].toUpperCase() + key.slice(1)), change: a[key] === undefined ? "added" : b[key] === undefined ? "removed" : "changed", ...(a[key] !== undefined ? { old: a[key] } : {}), ...(b[key] !== undefined ? { new: b[key] } : {}) });
  }
  const [before, after] = [new Map(a.arguments.map((x) => [x.name, x])), new Map(b.arguments.map((x) => [x.name, x]))];
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const [x, y] = [before.get(name), after.get(name)];
    if (x && y && same(toJson(x), toJson(y))) continue;
    const why =
      !y ? `argument ${name} removed: clients that pass it are refused`
      : y.required && !x?.required ? `argument ${name} is now required: clients that leave it out are refused`
      : undefined;
    out.push({ path: at("Arguments", name), change: !x ? "added" : !y ? "removed" : "changed", ...(x ? { old: toJson(x) } : {}), ...(y ? { new: toJson(y) } : {}), ...(why ? { breaking: why } : {}) });
  }
  const [qa, qb] = [new Map((a.ask ?? []).map((q) => [q.field, q])), new Map((b.ask ?? []).map((q) => [q.field, q]))];
  for (const field of [...new Set([...qa.keys(), ...qb.keys()])].sort()) {
    const [x, y] = [qa.get(field), qb.get(field)];
    if (x && y && x.message === y.message && x.inputKey === y.inputKey) continue;
    const why = !x ? `asks for ${field} now: clients without elicitation that leave it out are refused` : undefined;
    out.push({ path: at("Asks for", field), change: !x ? "added" : !y ? "removed" : "changed", ...(x ? { old: x.message } : {}), ...(y ? { new: y.message } : {}), ...(why ? { breaking: why } : {}) });
  }
  const [ma, mb] = [toJson(a.messages), toJson(b.messages)];
  if (!same(ma, mb)) out.push({ path: at("Messages"), change: "changed", old: ma, new: mb });
  return out;
}

export function diffPrompts(a: ManifestPrompt[] | undefined, b: ManifestPrompt[] | undefined): Change[] {
  const out: Change[] = [];
  for (const [name, x, y] of pairByKey(a, b, (p) => p.name)) {
    if (!y) out.push({ path: ["Prompt " + name], change: "removed", breaking: "prompt removed: clients getting it fail" });
    else if (!x) out.push({ path: ["Prompt " + name], change: "added", ...(y.description ? { new: y.description } : {}) });
    else out.push(...diffPrompt(x, y));
  }
  return out;
}
