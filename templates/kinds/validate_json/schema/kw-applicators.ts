// allOf, anyOf, oneOf, not, if/then/else: in-place subschemas. Failed branches never leak annotations.
import { clipText } from "../../../runtime/clip.js";
import { conjunction } from "./conjunction.js";
import { fail, mergeEval, newEval, type Check, type PathNode, type VError, type SubschemaCompiler } from "./types.js";

function depth(p: PathNode | null): number {
  let n = 0;
  for (let x = p; x; x = x.up) n++;
  return n;
}

/** The alternative that got furthest into the document, then the one with fewest failures. */
export function closest(branches: VError[][]): VError[] {
  let best: VError[] = [];
  let bestScore = -1;
  for (const errs of branches) {
    if (errs.length === 0) continue;
    const score = Math.max(...errs.map((e) => depth(e.path))) * 1000 - Math.min(errs.length, 999);
    if (score > bestScore) {
      bestScore = score;
      best = errs;
    }
  }
  return best;
}

export function applicatorKeywords(c: SubschemaCompiler, s: Record<string, unknown>, ptr: string, out: Check[]): void {
  if (Array.isArray(s.allOf)) out.push(conjunction(s.allOf.map((x, i) => c.node(x, `${ptr}/allOf/${i}`))));
  if (Array.isArray(s.anyOf)) out.push(anyOf(s.anyOf.map((x, i) => c.node(x, `${ptr}/anyOf/${i}`)), `${ptr}/anyOf`));
  if (Array.isArray(s.oneOf)) out.push(oneOf(s.oneOf.map((x, i) => c.node(x, `${ptr}/oneOf/${i}`)), `${ptr}/oneOf`));
  if ("not" in s) {
    const sub = c.node(s.not, `${ptr}/not`);
    out.push((v, run, path) => {
      const saved = run.errors;
      run.errors = null;
      const matched = sub(v, run, null, null);
      run.errors = saved;
      return matched ? fail(run, path, "not", `${ptr}/not`, `must not match the schema at ${ptr}/not, but does`, v) : true;
    });
  }
  if (c.draft >= 7 && "if" in s) {
    const cond = c.node(s.if, `${ptr}/if`);
    const then = "then" in s ? c.node(s.then, `${ptr}/then`) : null;
    const otherwise = "else" in s ? c.node(s.else, `${ptr}/else`) : null;
    if (then || otherwise || c.draft >= 2019) {
      out.push((v, run, path, ev) => {
        const saved = run.errors;
        run.errors = null;
        const t = ev ? newEval() : null;
        const holds = cond(v, run, null, t);
        run.errors = saved;
        if (holds) {
          if (ev && t) mergeEval(ev, t);
          return then ? then(v, run, path, ev) : true;
        }
        return otherwise ? otherwise(v, run, path, ev) : true;
      });
    }
  }
}

/** Runs every branch in error mode, returning which held and each branch's failures. */
function branches(subs: Check[], v: unknown, run: Parameters<Check>[1], path: PathNode | null, ev: Parameters<Check>[3]) {
  const saved = run.errors;
  const ok: boolean[] = [];
  const errs: VError[][] = [];
  for (const sub of subs) {
    run.errors = [];
    const t = ev ? newEval() : null;
    const held = sub(v, run, path, t);
    ok.push(held);
    errs.push(run.errors);
    if (held && ev && t) mergeEval(ev, t);
  }
  run.errors = saved;
  return { ok, errs };
}

function anyOf(subs: Check[], at: string): Check {
  return (v, run, path, ev) => {
    if (!run.errors) {
      if (!ev) {
        for (const sub of subs) if (sub(v, run, null, null)) return true;
        return false;
      }
      let any = false; // every valid branch contributes annotations
      for (const sub of subs) {
        const t = newEval();
        if (sub(v, run, null, t)) {
          any = true;
          mergeEval(ev, t);
        }
      }
      return any;
    }
    const r = branches(subs, v, run, path, ev);
    if (r.ok.includes(true)) return true;
    run.errors.push({ path, keyword: "anyOf", schemaPath: at, value: v, message: `matches none of the ${subs.length} alternatives of anyOf`, detail: closest(r.errs) });
    return false;
  };
}

function oneOf(subs: Check[], at: string): Check {
  return (v, run, path, ev) => {
    if (!run.errors) {
      let count = 0;
      let winner: ReturnType<typeof newEval> | null = null;
      for (const sub of subs) {
        const t = ev ? newEval() : null;
        if (sub(v, run, null, t)) {
          if (++count > 1) return false;
          winner = t;
        }
      }
      if (count === 1 && ev && winner) mergeEval(ev, winner);
      return count === 1;
    }
    const r = branches(subs, v, run, path, null);
    const held = r.ok.flatMap((ok, i) => (ok ? [i] : []));
    if (held.length === 1) {
      if (ev) subs[held[0]](v, { errors: null, regex: run.regex }, null, ev);
      return true;
    }
    if (held.length === 0) {
      run.errors.push({ path, keyword: "oneOf", schemaPath: at, value: v, message: `matches none of the ${subs.length} alternatives of oneOf`, detail: closest(r.errs) });
    } else {
      const which = clipText(held.map((i) => `${at}/${i}`).join(", "), 200);
      run.errors.push({ path, keyword: "oneOf", schemaPath: at, value: v, message: `matches ${held.length} alternatives of oneOf (${which}); exactly one must match` });
    }
    return false;
  };
}
