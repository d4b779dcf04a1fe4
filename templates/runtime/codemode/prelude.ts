// The program's side of the boundary, run inside QuickJS before the program: `api`, `console` and the
// run/settle pair the host drives. It keeps its own references to JSON and Promise, taken before
// any program code runs, so a program that replaces globals changes only its own view. Only strings
// and numbers ever cross to the host: arguments and results as JSON text made by this code.

/**
 * A function expression of (host, names) that returns {run, settle}. `host(op, a, b)` is the one
 * host function: "call" (operation, JSON arguments) -> call id, "log" (line), "done" (JSON result),
 * "fail" (error text). After it runs, the global `host` binding is removed.
 */
export const PRELUDE = String.raw`(function (host, names) {
  "use strict";
  const parse = JSON.parse, stringify = JSON.stringify, P = Promise, E = Error, TE = TypeError;
  const finite = Number.isFinite, freeze = Object.freeze, create = Object.create, define = Object.defineProperty;
  const waiting = create(null);
  const kind = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  function plain(key, value) {
    const t = typeof value;
    const at = key === "" ? "the value" : "property " + stringify(String(key));
    if (t === "function" || t === "symbol" || t === "bigint") throw new TE(at + " is a " + t + ": only JSON values (objects, arrays, strings, numbers, booleans, null) can be passed");
    if (t === "undefined") throw new TE(at + " is undefined: leave the property out, or pass null");
    if (t === "number" && !finite(value)) throw new TE(at + " is " + String(value) + ": JSON has no such number");
    return value;
  }
  function encode(value) {
    try {
      return stringify(value, plain);
    } catch (e) {
      const why = e instanceof E ? e.message : "a value that is not JSON";
      throw new TE("not a JSON value: " + why);
    }
  }
  function show(e) {
    try {
      if (e instanceof E) return String(e.name) + ": " + String(e.message) + (typeof e.stack === "string" && e.stack ? "\n" + e.stack : "");
      return "a thrown " + kind(e) + ": " + (typeof e === "string" ? e : encode(e));
    } catch (_) {
      return "a thrown value that cannot be shown";
    }
  }
  const api = create(null);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    api[name] = function (args) {
      const text = encode(args === undefined ? {} : args);
      if (kind(parse(text)) !== "object") throw new TE("api." + name + " takes one object of arguments, not a " + kind(parse(text)));
      const id = host("call", name, text);
      return new P(function (resolve, reject) { waiting[id] = [resolve, reject]; });
    };
  }
  const line = function () {
    let out = "";
    for (let i = 0; i < arguments.length; i++) {
      const a = arguments[i];
      let s;
      try { s = typeof a === "string" ? a : encode(a); } catch (_) { s = String(kind(a)); }
      out += (i ? " " : "") + s;
    }
    host("log", out);
  };
  const console = freeze({ log: line, info: line, warn: line, error: line, debug: line });
  define(globalThis, "api", { value: freeze(api), enumerable: false });
  define(globalThis, "console", { value: console, enumerable: false });
  return {
    run: function (program) {
      P.resolve().then(program).then(
        function (v) {
          let text;
          try { text = v === undefined ? "null" : encode(v); } catch (e) { host("fail", "the program's result " + show(e).replace(/^TypeError: /, "is ")); return; }
          host("done", text);
        },
        function (e) { host("fail", show(e)); },
      );
    },
    settle: function (id, ok, text) {
      const w = waiting[id];
      delete waiting[id];
      if (!w) return;
      if (ok) return w[0](parse(text));
      const info = parse(text);
      const e = new E(info.message);
      e.name = "OperationError";
      e.operation = info.operation;
      if (info.pointers) e.pointers = info.pointers;
      w[1](e);
    },
  };
})`;
