// Object keywords. properties/patternProperties/additionalProperties share one pass over the keys.
import { clipText, quoteValue } from "../../../runtime/clip.js";
import { escapeToken } from "./pointer.js";
import { child, fail, isObject, type Check, type PatternInfo, type Run, type VError, type SubschemaCompiler } from "./types.js";

const q = (k: string) => JSON.stringify(clipText(k, 200));

export function objectKeywords(c: SubschemaCompiler, s: Record<string, unknown>, ptr: string, out: Check[]): void {
  const props = isObject(s.properties) ? Object.entries(s.properties) : [];
  const names = props.map(([k]) => k);
  const checks = props.map(([k, sub]) => c.node(sub, `${ptr}/properties/${escapeToken(k)}`));
  const pats: [PatternInfo, Check][] = isObject(s.patternProperties)
    ? Object.entries(s.patternProperties).map(([p, sub]) => [c.pattern(p), c.node(sub, `${ptr}/patternProperties/${escapeToken(p)}`)])
    : [];
  const hasAdditional = "additionalProperties" in s;
  if (props.length > 0 && pats.length === 0 && !hasAdditional) out.push(propertiesOnly(names, checks));
  else if (props.length > 0 || pats.length > 0 || hasAdditional) {
    const additional = hasAdditional ? c.node(s.additionalProperties, `${ptr}/additionalProperties`) : null;
    const allowed = clipText(names.join(", "), 200);
    const closed = s.additionalProperties === false;
    const index = new Map(names.map((k, i) => [k, checks[i]]));
    out.push((v, run, path, ev) => {
      if (!isObject(v)) return true;
      let ok = true;
      for (const k of Object.keys(v)) {
        let matched = false;
        const known = index.get(k);
        const cp = child(run, path, k);
        if (known !== undefined) {
          matched = true;
          if (!known(v[k], run, cp, null)) {
            if (!run.errors) return false;
            ok = false;
          }
        }
        for (let i = 0; i < pats.length; i++) {
          if (!run.regex.test(pats[i][0], k)) continue;
          matched = true;
          if (!pats[i][1](v[k], run, cp, null)) {
            if (!run.errors) return false;
            ok = false;
          }
        }
        if (!matched && additional) {
          const held = closed
            ? fail(run, cp, "additionalProperties", `${ptr}/additionalProperties`, `property ${q(k)} is not allowed (additionalProperties is false${names.length ? `; allowed: ${allowed}` : ""})`, v[k])
            : additional(v[k], run, cp, null);
          if (!held) {
            if (!run.errors) return false;
            ok = false;
          }
        }
        if (ev && (matched || additional)) ev.props.add(k);
      }
      return ok;
    });
  }
  if (Array.isArray(s.required) && s.required.length > 0) {
    const req = s.required.filter((k): k is string => typeof k === "string");
    out.push((v, run, path) => {
      if (!isObject(v)) return true;
      let ok = true;
      for (const k of req) {
        if (Object.hasOwn(v, k)) continue;
        if (!run.errors) return false;
        ok = fail(run, path, "required", `${ptr}/required`, `is missing the required property ${q(k)}`, v);
      }
      return ok;
    });
  }
  const count = (k: string, ok: (n: number) => boolean, words: string) =>
    out.push((v, run, path) => {
      if (!isObject(v)) return true;
      const n = Object.keys(v).length;
      return ok(n) || fail(run, path, k, `${ptr}/${k}`, `must have ${words} properties; has ${n}`, v);
    });
  if (typeof s.maxProperties === "number") count("maxProperties", (n) => n <= (s.maxProperties as number), `at most ${s.maxProperties}`);
  if (typeof s.minProperties === "number") count("minProperties", (n) => n >= (s.minProperties as number), `at least ${s.minProperties}`);
  dependencies(c, s, ptr, out);
  if (c.draft >= 6 && "propertyNames" in s) out.push(propertyNames(c.node(s.propertyNames, `${ptr}/propertyNames`), `${ptr}/propertyNames`));
}

function propertiesOnly(names: string[], checks: Check[]): Check {
  return (v, run, path, ev) => {
    if (!isObject(v)) return true;
    let ok = true;
    for (let i = 0; i < names.length; i++) {
      const k = names[i];
      if (!Object.hasOwn(v, k)) continue;
      if (ev) ev.props.add(k);
      if (!checks[i](v[k], run, child(run, path, k), null)) {
        if (!run.errors) return false;
        ok = false;
      }
    }
    return ok;
  };
}

function dependencies(c: SubschemaCompiler, s: Record<string, unknown>, ptr: string, out: Check[]): void {
  const required: [string, string[], string][] = [];
  const schemas: [string, Check][] = [];
  const take = (kw: string, allowLists: boolean, allowSchemas: boolean) => {
    if (!isObject(s[kw])) return;
    for (const [k, dep] of Object.entries(s[kw] as Record<string, unknown>)) {
      if (Array.isArray(dep)) {
        if (allowLists) required.push([k, dep.filter((x): x is string => typeof x === "string"), `${ptr}/${kw}/${escapeToken(k)}`]);
      } else if (allowSchemas) schemas.push([k, c.node(dep, `${ptr}/${kw}/${escapeToken(k)}`)]);
    }
  };
  if (c.draft <= 7) take("dependencies", true, true);
  else {
    take("dependentRequired", true, false);
    take("dependentSchemas", false, true);
  }
  if (required.length) {
    out.push((v, run, path) => {
      if (!isObject(v)) return true;
      let ok = true;
      for (const [k, needs, at] of required) {
        if (!Object.hasOwn(v, k)) continue;
        for (const n of needs) {
          if (Object.hasOwn(v, n)) continue;
          if (!run.errors) return false;
          ok = fail(run, path, "dependentRequired", at, `has ${q(k)}, so it must also have ${q(n)}`, v);
        }
      }
      return ok;
    });
  }
  if (schemas.length) {
    out.push((v, run, path, ev) => {
      if (!isObject(v)) return true;
      let ok = true;
      for (const [k, sub] of schemas) {
        if (!Object.hasOwn(v, k) || sub(v, run, path, ev)) continue;
        if (!run.errors) return false;
        ok = false;
      }
      return ok;
    });
  }
}

function propertyNames(sub: Check, at: string): Check {
  return (v, run, path) => {
    if (!isObject(v)) return true;
    let ok = true;
    for (const k of Object.keys(v)) {
      if (!run.errors) {
        if (!sub(k, run, null, null)) return false;
        continue;
      }
      const saved: VError[] = run.errors;
      const mine: Run = { errors: [], regex: run.regex };
      if (sub(k, mine, null, null)) continue;
      ok = false;
      const why = mine.errors?.[0]?.message ?? "fails propertyNames";
      saved.push({ path: child(run, path, k), keyword: "propertyNames", schemaPath: at, value: k, message: `property name ${q(k)} is not allowed: it ${why}`, detail: mine.errors ?? [] });
    }
    return ok;
  };
}

export function unevaluatedProperties(c: SubschemaCompiler, schema: unknown, ptr: string): Check {
  const at = `${ptr}/unevaluatedProperties`;
  const sub = c.node(schema, at);
  return (v, run, path, ev) => {
    if (!isObject(v) || !ev || ev.allProps) return true;
    let ok = true;
    for (const k of Object.keys(v)) {
      if (ev.props.has(k)) continue;
      const cp = child(run, path, k);
      const held = schema === false
        ? fail(run, cp, "unevaluatedProperties", at, `property ${q(k)} is not allowed (unevaluatedProperties is false): ${quoteValue(v[k])}`, v[k])
        : sub(v[k], run, cp, null);
      if (!held) {
        if (!run.errors) return false;
        ok = false;
      }
    }
    ev.allProps = true;
    return ok;
  };
}
