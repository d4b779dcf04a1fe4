// Repeated subschemas of one schema become entries of its root `$defs`, each use a same-document
// `$ref` to it, wherever that makes the schema's JSON shorter. A `$ref` is evaluated as the schema
// it points at, in place (JSON Schema 2020-12, section 8.2.3.1), so what validates and the errors
// at each instance location stay the same; only the schema locations move. Each schema stays whole:
// its `$defs` are its own, at its root, never shared with another tool's.
//
// Chosen greedily by what each saves (its length times its uses, less the `$ref`s and the entry),
// with ties broken by where each first occurs, so the same schema always gives the same bytes.
// The root and its own properties stay in place (the http kind's check reads each input's own
// schema). An entry is named after the OpenAPI component the subschema was inlined from, else
// after a hash of its JSON; a name already taken gets `_2`, `_3` (also when only the punctuation
// differs: the types emitter keeps letters and digits of a `$defs` name).
import type { Json } from "../../templates/runtime/types.js";
import { MANY_SUBSCHEMAS, ONE_SUBSCHEMA, SUBSCHEMA_MAPS } from "../shared/schema-walk.js";
import { sha256 } from "../shared/hash.js";
import { byCodeUnit } from "../shared/order.js";
import { carryOrigin, originOf, type Origins } from "./origin.js";
import { unescapePointer } from "./refs.js";

type Obj = Record<string, Json>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const DEFS_REF = /^#\/\$defs\/[A-Za-z0-9_.-]+$/;
/** Keywords that change how references resolve: a schema with one is left as it is. */
const RESOLUTION = new Set(["$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "definitions"]);
const MAX_ROUNDS = 256;

/**
 * The schema with its repeated subschemas hoisted into `$defs`, or the schema itself when nothing
 * gets shorter. `origins` (the import run's) names each entry after the component it came from.
 */
export function hoistSchema(schema: Obj, origins?: Origins): Obj {
  if (!hoistable(schema)) return schema;
  let current: Obj = schema;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = hoistOnce(current, origins);
    if (!next) break;
    current = next;
  }
  if (current === schema) return schema;
  const { $defs, ...rest } = current;
  const defs = isObj($defs) ? $defs : {};
  const out = { ...rest, $defs: Object.fromEntries(Object.keys(defs).sort(byCodeUnit).map((k) => [k, defs[k]])) };
  return JSON.stringify(out).length < JSON.stringify(schema).length ? out : schema;
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

const refText = (name: string) => JSON.stringify({ $ref: `#/$defs/${name}` }).length;
/** A subschema no longer than the shortest `$ref` never pays for it. */
const MIN_TEXT = refText("s") + 1;

/** A node's identity by content (equal JSON, equal id) and the length of its JSON text. */
interface Shape {
  id: number;
  len: number;
}

/**
 * Shapes of every node, each object or array computed once (converted schemas share nodes). A
 * node's key is built from its children's ids, not their text, so the whole tree costs its size.
 */
function shapes(): (n: Json) => Shape {
  const memo = new Map<object, Shape>();
  const ids = new Map<string, number>();
  const idOf = (key: string) => {
    let id = ids.get(key);
    if (id === undefined) ids.set(key, (id = ids.size));
    return id;
  };
  const shape = (n: Json): Shape => {
    if (n === null || typeof n !== "object") {
      const text = JSON.stringify(n);
      return { id: idOf(text), len: text.length };
    }
    let got = memo.get(n);
    if (got) return got;
    const parts: string[] = [];
    let len = 2;
    if (Array.isArray(n)) {
      for (const v of n) {
        const c = shape(v);
        parts.push(String(c.id));
        len += c.len;
      }
      len += Math.max(0, n.length - 1);
      got = { id: idOf(`[${parts.join(",")}`), len };
    } else {
      const entries = Object.entries(n);
      for (const [k, v] of entries) {
        const c = shape(v);
        const key = JSON.stringify(k);
        parts.push(`${key}:${c.id}`);
        len += key.length + 1 + c.len;
      }
      len += Math.max(0, entries.length - 1);
      got = { id: idOf(`{${parts.join(",")}`), len };
    }
    memo.set(n, got);
    return got;
  };
  return shape;
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
function mapSubschemas(node: Obj, isRoot: boolean, f: (child: Json, replaceable: boolean) => Json, origins: Origins | undefined): Obj {
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
  return changed ? carryOrigin(origins, node, out) : node;
}

interface Use {
  count: number;
  first: Obj;
  len: number;
  /** Where it first occurs, in walk order: what breaks a tie. */
  order: number;
  origin?: string;
}

/** Every replaceable subschema, by content, with how often it occurs (the root's `$defs` entries' insides included). */
function uses(root: Obj, shape: (n: Json) => Shape, origins: Origins | undefined): Map<number, Use> {
  const found = new Map<number, Use>();
  const visit = (n: Json, replaceable: boolean, isRoot: boolean): void => {
    if (!isObj(n)) return;
    if (replaceable) {
      const { id, len } = shape(n);
      if (len >= MIN_TEXT) {
        let u = found.get(id);
        if (u) u.count++;
        else found.set(id, (u = { count: 1, first: n, len, order: found.size }));
        u.origin ??= originOf(origins, n);
      }
    }
    eachSubschema(n, isRoot, (child, r) => visit(child, r, false));
  };
  visit(root, false, true);
  return found;
}

const letters = (name: string) => name.replace(/[^A-Za-z0-9]/g, "");

function baseName(u: Use): string {
  const last = u.origin?.split("/").pop();
  const named = last === undefined ? "" : unescapePointer(last).replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 60);
  return /[A-Za-z0-9]/.test(named) ? named : `s${sha256(JSON.stringify(u.first)).slice(0, 10)}`;
}

function freeName(base: string, taken: Set<string>): string {
  let name = base;
  for (let i = 2; taken.has(name) || taken.has(letters(name)); i++) name = `${base}_${i}`;
  return name;
}

/** One more subschema hoisted: the one that saves most. `undefined` when none saves anything. */
function hoistOnce(root: Obj, origins: Origins | undefined): Obj | undefined {
  const shape = shapes();
  const defs: Obj = isObj(root.$defs) ? root.$defs : {};
  const byId = new Map<number, string>();
  for (const name of Object.keys(defs).sort(byCodeUnit)) if (!byId.has(shape(defs[name]).id)) byId.set(shape(defs[name]).id, name);
  const taken = new Set(Object.keys(defs).flatMap((n) => [n, letters(n)]));
  const entryCost = Object.keys(defs).length ? 2 : `,"$defs":{}`.length + 1;
  let best: { id: number; name: string; gain: number; order: number; body: Obj; existing: boolean } | undefined;
  for (const [id, u] of uses(root, shape, origins)) {
    const existing = byId.get(id);
    if (!existing && u.count < 2) continue;
    // The shortest name a new entry could get bounds what it saves: most subschemas stop here, unnamed.
    const bound = u.count * (u.len - refText("s")) - (existing ? 0 : u.len + entryCost);
    if (bound <= 0 || (best && bound < best.gain)) continue;
    const name = existing ?? freeName(baseName(u), taken);
    const saved = u.count * (u.len - refText(name));
    const gain = existing ? saved : saved - (JSON.stringify(name).length + 1 + u.len + entryCost);
    if (gain > 0 && (!best || gain > best.gain || (gain === best.gain && u.order < best.order))) best = { id, name, gain, order: u.order, body: u.first, existing: !!existing };
  }
  if (!best) return undefined;
  const chosen = best;
  const ref: Obj = { $ref: `#/$defs/${chosen.name}` };
  const rewrite = (n: Json, replaceable: boolean, isRoot: boolean): Json => {
    if (!isObj(n)) return n;
    if (replaceable && shape(n).id === chosen.id) return ref;
    return mapSubschemas(n, isRoot, (child, r) => rewrite(child, r, false), origins);
  };
  // The root is never replaced: its subschemas are rewritten in place.
  const out = mapSubschemas(root, true, (child, r) => rewrite(child, r, false), origins);
  return chosen.existing ? out : { ...out, $defs: { ...(isObj(out.$defs) ? out.$defs : {}), [chosen.name]: chosen.body } };
}
