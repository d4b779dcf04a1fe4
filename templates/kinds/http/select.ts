// JMESPath for `output.select`. The expression is parsed once, when the generated module loads
// (it was syntax-checked at build time); each call only walks the tree. The library is a pure
// tree interpreter (no eval or new Function), so it bundles into a plain-Node server.
import { compile, TreeInterpreter } from "@jmespath-community/jmespath";
import type { Json } from "../../runtime/types.js";
import type { SelectFn } from "./config.js";

type JmesValue = Parameters<typeof TreeInterpreter.search>[1];

/** Compiles an expression; throws on a syntax error. */
export function compileSelect(expression: string): SelectFn {
  const ast = compile(expression);
  return (data: Json) => TreeInterpreter.search(ast, data as JmesValue) as Json;
}
