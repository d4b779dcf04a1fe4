// Repeated subschemas of one schema become entries of its root `$defs`, each use a same-document
// `$ref` to it, wherever that makes the schema's JSON shorter. A `$ref` is evaluated as the schema
// it points at, in place (JSON Schema 2020-12, section 8.2.3.1), so what validates and the errors
// at each instance location stay the same; only the schema locations move. Each schema stays whole:
// its `$defs` are its own, at its root, never shared with another tool's.
//
// Chosen greedily by what each saves (its length times its uses, less the `$ref`s and the entry),
// with ties broken by the subschema's JSON text, so the same schema always gives the same bytes.
// The root and its own properties stay in place (the http kind's check reads each input's own
// schema). An entry is named after the OpenAPI component the subschema was inlined from, else
// after a hash of its JSON; a name already taken gets `_2`, `_3` (also when only the punctuation
// differs: the types emitter keeps letters and digits of a `$defs` name).
import type { Json } from "../../templates/runtime/types.js";
import { MANY_SUBSCHEMAS, ONE_SUBSCHEMA, SUBSCHEMA_MAPS } from "../shared/schema-walk.js";
import { sha256 } from "../shared/hash.js";
import { byCodeUnit } from "../shared/order.js";
import { carryOrigin, originOf } from "./origin.js";
import { unescapePointer } from "./refs.js";

type Obj = Record<string, Json>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const DEFS_REF = /^#\/\$defs\/[A-Za-z0-9_.-]+$/;
/** Keywords that change how references resolve: a schema with one is left as it is. */
const RESOLUTION = new Set(["$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "definitions"]);
const MAX_ROUNDS = 256;
/** A subschema shorter than this never pays for its `$ref`. */
const MIN_TEXT = 24;

/** The schema with its repeated subschemas hoisted into `$defs`, or the schema itself when nothing gets shorter. */
export function hoistSchema<T extends Json>(schema: T): T {
  if (!isObj(schema) || !hoistable(schema)) return schema;
  let current: Obj = schema;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = hoistOnce(current);
    if (!next) break;
    current = next;
  }
  if (current === schema) return schema;
  const { $defs, ...rest } = current;
  const sorted = Object.fromEntries(Object.keys($defs as Obj).sort(byCodeUnit).map((k) => [k, ($defs as Obj)[k]]));
  const out = { ...rest, $defs: sorted };
  return (JSON.stringify(out).length < JSON.stringify(schema).length ? out : schema) as T;
}

/** Only schemas whose references all name a root `$defs` entry, and that set no base URI or anchor. */
function hoistable(root: Obj): boolean {
  let ok = true;
  const visit = (n: Json): void => {
    if (!ok || !n || typeof n !== "object") return;
    if (Array.isArray(n)) return n.forEach(visit);
    for (const [k, v] of Object.entries(n)) {
      if (RESOLUTION.has(k) || (k === "$ref" && (typeof v !== "string" || !DEFS_REF.test(v)))) ok = false;
      if (k !== "enum" && k !== "const" && k !== "default" && k !== "examples") visit(v);
    }
  };
  visit(root);
  return ok;
}

/** The JSON text of every node, each object or array computed once (converted schemas share nodes). */
function texts(): (n: Json) => string {
  const memo = new Map<object, string>();
  const text = (n: Json): string => {
    if (n === null || typeof n !== "object") return JSON.stringify(n);
    let t = memo.get(n);
    if (t === undefined) {
      t = Array.isArray(n) ? `[${n.map(text).join(",")}]` : `{${Object.entries(n).map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`).join(",")}}`;
      memo.set(n, t);
    }
    return t;
  };
  return text;
}

/** Calls `f` on every subschema position of `node` with whether a `$ref` may stand there. */
function eachSubschema(node: Obj, isRoot: boolean, f: (child: Json, replaceable: boolean) => void): void {
  for (const [k, v] of Object.entries(node)) {
    if (MANY_SUBSCHEMAS.includes(k) && Array.isArray(v)) v.forEach((x) => f(x, true));
    else if (ONE_SUBSCHEMA.includes(k)) (Array.isArray(v) ? v : [v]).forEach((x) => f(x, true));
    else if (SUBSCHEMA_MAPS.includes(k) && isObj(v)) for (const x of Object.values(v)) f(x, !(isRoot && (k === "properties" || k === "$defs")));
  }
}

/** `node` with its subschemas rewritten by `f` (a copy where any changed; the node itself otherwise). */
function mapSubschemas(node: Obj, isRoot: boolean, f: (child: Json, replaceable: boolean) => Json): Obj {
  let changed = false;
  const out: Obj = {};
  const map = (x: Json, replaceable: boolean) => {
    const y = f(x, replaceable);
    if (y !== x) changed = true;
    return y;
  };
  for (const [k, v] of Object.entries(node)) {
    if (MANY_SUBSCHEMAS.includes(k) && Array.isArray(v)) out[k] = v.map((x) => map(x, true));
    else if (ONE_SUBSCHEMA.includes(k)) out[k] = Array.isArray(v) ? v.map((x) => map(x, true)) : map(v, true);
    else if (SUBSCHEMA_MAPS.includes(k) && isObj(v)) out[k] = Object.fromEntries(Object.entries(v).map(([pk, x]) => [pk, map(x, !(isRoot && (k === "properties" || k === "$defs")))]));
    else out[k] = v;
  }
  return changed ? carryOrigin(node, out) : node;
}

interface Use {
  count: number;
  first: Obj;
  origin?: string;
}

/** Every replaceable subschema's JSON text with how often it occurs (the root's `$defs` entries' insides included). */
function uses(root: Obj, text: (n: Json) => string): Map<string, Use> {
  const found = new Map<string, Use>();
  const visit = (n: Json, replaceable: boolean, isRoot: boolean): void => {
    if (!isObj(n)) return;
    if (replaceable) {
      const t = text(n);
      if (t.length >= MIN_TEXT) {
        const u = found.get(t);
        if (u) u.count++;
        else found.set(t, { count: 1, first: n });
        const entry = found.get(t)!;
        entry.origin ??= originOf(n);
      }
    }
    eachSubschema(n, isRoot, (child, r) => visit(child, r, false));
  };
  visit(root, false, true);
  return found;
}

const refText = (name: string) => JSON.stringify({ $ref: `#/$defs/${name}` }).length;
const letters = (name: string) => name.replace(/[^A-Za-z0-9]/g, "");

function baseName(u: Use, text: string): string {
  const last = u.origin?.split("/").pop();
  const named = last === undefined ? "" : unescapePointer(last).replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 60);
  return /[A-Za-z0-9]/.test(named) ? named : `s${sha256(text).slice(0, 10)}`;
}

function freeName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name) || taken.has(letters(name)); i++) name = `${base}_${i}`;
  return name;
}

/** One more subschema hoisted: the one that saves most. `undefined` when none saves anything. */
function hoistOnce(root: Obj): Obj | undefined {
  const text = texts();
  const defs: Obj = isObj(root.$defs) ? root.$defs : {};
  const byText = new Map<string, string>();
  for (const name of Object.keys(defs).sort(byCodeUnit)) if (!byText.has(text(defs[name]))) byText.set(text(defs[name]), name);
  const taken = new Set(Object.keys(defs).flatMap((n) => [n, letters(n)]));
  const entryCost = Object.keys(defs).length ? 2 : `,"$defs":{}`.length + 1;
  let best: { text: string; name: string; gain: number; body: Obj } | undefined;
  for (const [t, u] of uses(root, text)) {
    const existing = byText.get(t);
    if (!existing && u.count < 2) continue;
    const name = existing ?? freeName(baseName(u, t), taken);
    const saved = u.count * (t.length - refText(name));
    const gain = existing ? saved : saved - (JSON.stringify(name).length + t.length + entryCost);
    if (gain > 0 && (!best || gain > best.gain || (gain === best.gain && t < best.text))) best = { text: t, name, gain, body: u.first };
  }
  if (!best) return undefined;
  const chosen = best;
  const ref: Obj = { $ref: `#/$defs/${chosen.name}` };
  const rewrite = (n: Json, replaceable: boolean, isRoot: boolean): Json => {
    if (!isObj(n)) return n;
    const t = text(n);
    if (replaceable && t === chosen.text) return ref;
    if (!t.includes(chosen.text)) return n;
    return mapSubschemas(n, isRoot, (child, r) => rewrite(child, r, false));
  };
  const out = rewrite(root, false, true) as Obj;
  return byText.has(chosen.text) ? out : { ...out, $defs: { ...(isObj(out.$defs) ? out.$defs : {}), [chosen.name]: chosen.body } };
}
