// Turns a prepared schema into closures, once per schema: each keyword becomes a small function and a
// schema object becomes the conjunction of its keywords. Nothing is generated as code.
import type { Target } from "./pointer.js";
import { applicatorKeywords } from "./kw-applicators.js";
import { arrayKeywords, unevaluatedItems } from "./kw-array.js";
import { objectKeywords, unevaluatedProperties } from "./kw-object.js";
import { scalarKeywords } from "./kw-scalar.js";
import { conjunction, TRUE } from "./conjunction.js";
import { fail, isObject, mergeEval, newEval, type Check, type Draft, type PatternInfo, type SubschemaCompiler } from "./types.js";

export class Compiler implements SubschemaCompiler {
  private readonly cache = new Map<object, Check>();

  constructor(
    readonly draft: Draft,
    private readonly resolveRef: (ref: string, at: string) => Target,
    readonly pattern: (source: string) => PatternInfo,
  ) {}

  /** The check for a subschema at `ptr` (a URI fragment such as #/properties/a). */
  node(schema: unknown, ptr: string): Check {
    if (schema === true) return TRUE;
    if (schema === false) {
      return (v, run, path) => fail(run, path, "false", ptr, "is not allowed here (the schema at this place is false)", v);
    }
    const s = schema as Record<string, unknown>;
    const hit = this.cache.get(s);
    if (hit) return hit;
    const built = this.build(s, ptr);
    this.cache.set(s, built);
    return built;
  }

  /** A reference compiles its target on first use, which is what lets schemas recurse. */
  ref(ref: string, at: string): Check {
    const target = this.resolveRef(ref, at);
    let check: Check | null = null;
    return (v, run, path, ev) => (check ??= this.node(target.schema, target.ptr))(v, run, path, ev);
  }

  private build(s: Record<string, unknown>, ptr: string): Check {
    // Before 2019-09 a $ref replaces every keyword beside it.
    if (this.draft <= 7 && typeof s.$ref === "string") return this.ref(s.$ref, `${ptr}/$ref`);
    const checks: Check[] = [];
    scalarKeywords(this, s, ptr, checks);
    if (this.draft >= 2019) {
      if (typeof s.$ref === "string") checks.push(this.ref(s.$ref, `${ptr}/$ref`));
      // With no embedded resources the dynamic scope is the root alone, so these resolve statically.
      if (this.draft === 2020 && typeof s.$dynamicRef === "string") checks.push(this.ref(s.$dynamicRef, `${ptr}/$dynamicRef`));
      if (this.draft === 2019 && typeof s.$recursiveRef === "string") checks.push(this.ref(s.$recursiveRef, `${ptr}/$recursiveRef`));
    }
    applicatorKeywords(this, s, ptr, checks);
    objectKeywords(this, s, ptr, checks);
    arrayKeywords(this, s, ptr, checks);
    const inner = conjunction(checks);
    if (this.draft < 2019) return inner;
    const late: Check[] = [];
    if ("unevaluatedProperties" in s) late.push(unevaluatedProperties(this, s.unevaluatedProperties, ptr));
    if ("unevaluatedItems" in s) late.push(unevaluatedItems(this, s.unevaluatedItems, ptr));
    if (late.length === 0) return inner;
    const after = conjunction(late);
    // unevaluated* see the annotations of this schema object's other keywords and in-place subschemas.
    return (v, run, path, ev) => {
      if (!isObject(v) && !Array.isArray(v)) return inner(v, run, path, ev);
      const local = newEval();
      let ok = inner(v, run, path, local);
      if (!ok && !run.errors) return false;
      ok = after(v, run, path, local) && ok;
      if (ev) mergeEval(ev, local);
      return ok;
    };
  }
}
