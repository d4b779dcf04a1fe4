// Array keywords. Tuple forms differ by draft: items[] + additionalItems up to 2019-09, prefixItems +
// items from 2020-12.
import { quoteValue } from "../../../runtime/clip.js";
import { firstDuplicate } from "./equal.js";
import { child, fail, type Check, type Eval, type Run, type PathNode, type SubschemaCompiler } from "./types.js";

function each(sub: Check, from: number, v: unknown[], run: Run, path: PathNode | null): boolean {
  let ok = true;
  for (let i = from; i < v.length; i++) {
    if (!sub(v[i], run, child(run, path, i), null)) {
      if (!run.errors) return false;
      ok = false;
    }
  }
  return ok;
}

export function arrayKeywords(c: SubschemaCompiler, s: Record<string, unknown>, ptr: string, out: Check[]): void {
  const tupleKey = c.draft === 2020 ? "prefixItems" : "items";
  const restKey = c.draft === 2020 ? "items" : "additionalItems";
  const tupleList = Array.isArray(s[tupleKey]) ? (s[tupleKey] as unknown[]) : null;
  const tuple = tupleList ? tupleList.map((x, i) => c.node(x, `${ptr}/${tupleKey}/${i}`)) : [];
  // Up to 2019-09, additionalItems means something only beside an items array.
  const restSchema = c.draft === 2020 ? s.items : tupleList ? s.additionalItems : s.items;
  const restAt = c.draft === 2020 || tupleList ? `${ptr}/${restKey}` : `${ptr}/items`;
  const rest = restSchema !== undefined && !Array.isArray(restSchema) ? c.node(restSchema, restAt) : null;
  if (tuple.length || rest) {
    const restKeyword = restAt.slice(restAt.lastIndexOf("/") + 1);
    out.push((v, run, path, ev) => {
      if (!Array.isArray(v)) return true;
      let ok = true;
      const n = Math.min(tuple.length, v.length);
      for (let i = 0; i < n; i++) {
        if (!tuple[i](v[i], run, child(run, path, i), null)) {
          if (!run.errors) return false;
          ok = false;
        }
      }
      if (ev && n > ev.items) ev.items = n;
      if (rest && v.length > tuple.length) {
        if (ev) ev.allItems = true;
        if (restSchema === false) {
          return fail(run, child(run, path, tuple.length), restKeyword, restAt, `must have at most ${tuple.length} items (${restKeyword} is false); has ${v.length}`, v[tuple.length]) && ok;
        }
        ok = each(rest, tuple.length, v, run, path) && ok;
      }
      return ok;
    });
  }
  if (c.draft >= 6 && "contains" in s) contains(c, s, ptr, out);
  const count = (k: string, ok: (n: number) => boolean, words: string) =>
    out.push((v, run, path) => !Array.isArray(v) || ok(v.length) || fail(run, path, k, `${ptr}/${k}`, `must have ${words} items; has ${v.length}`, v));
  if (typeof s.maxItems === "number") count("maxItems", (n) => n <= (s.maxItems as number), `at most ${s.maxItems}`);
  if (typeof s.minItems === "number") count("minItems", (n) => n >= (s.minItems as number), `at least ${s.minItems}`);
  if (s.uniqueItems === true) {
    out.push((v, run, path) => {
      if (!Array.isArray(v) || v.length < 2) return true;
      const dup = firstDuplicate(v);
      if (!dup) return true;
      return fail(run, path, "uniqueItems", `${ptr}/uniqueItems`, `must have unique items, but items ${dup[0]} and ${dup[1]} are equal: ${quoteValue(v[dup[1]])}`, v);
    });
  }
}

function contains(c: SubschemaCompiler, s: Record<string, unknown>, ptr: string, out: Check[]): void {
  const sub = c.node(s.contains, `${ptr}/contains`);
  const min = c.draft >= 2019 && typeof s.minContains === "number" ? s.minContains : 1;
  const max = c.draft >= 2019 && typeof s.maxContains === "number" ? s.maxContains : Infinity;
  const annotate = c.draft === 2020; // only 2020-12 lets contains mark items as evaluated
  out.push((v, run, path, ev) => {
    if (!Array.isArray(v)) return true;
    const collect = annotate && ev;
    const saved = run.errors;
    run.errors = null;
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      if (!sub(v[i], run, null, null)) continue;
      n++;
      if (collect) (ev.itemSet ??= new Set()).add(i);
      else if (n >= min && max === Infinity) break;
    }
    run.errors = saved;
    if (n < min) {
      const kw = min === 1 ? "contains" : "minContains";
      return fail(run, path, kw, `${ptr}/${kw}`, `must contain at least ${min} item${min === 1 ? "" : "s"} matching ${ptr}/contains; ${n} match`, v);
    }
    if (n > max) return fail(run, path, "maxContains", `${ptr}/maxContains`, `must contain at most ${max} items matching ${ptr}/contains; ${n} match`, v);
    return true;
  });
}

export function unevaluatedItems(c: SubschemaCompiler, schema: unknown, ptr: string): Check {
  const at = `${ptr}/unevaluatedItems`;
  const sub = c.node(schema, at);
  const seen = (ev: Eval, i: number) => i < ev.items || (ev.itemSet !== null && ev.itemSet.has(i));
  return (v, run, path, ev) => {
    if (!Array.isArray(v) || !ev || ev.allItems) return true;
    let ok = true;
    for (let i = 0; i < v.length; i++) {
      if (seen(ev, i)) continue;
      const cp = child(run, path, i);
      const held = schema === false
        ? fail(run, cp, "unevaluatedItems", at, `item ${i} is not allowed (unevaluatedItems is false): ${quoteValue(v[i])}`, v[i])
        : sub(v[i], run, cp, null);
      if (!held) {
        if (!run.errors) return false;
        ok = false;
      }
    }
    ev.allItems = true;
    return ok;
  };
}
