// Emits src/catalog.ts for a server with exposure: catalog or code: its search index, built now, as one
// JSON text parsed when the first search imports the module (entry.ts LOAD_INDEX): no index is built,
// read or parsed when the server starts.
import type { ServerPlan } from "../model/plan.js";
import type { EmittedFile } from "../model/output.js";
import { buildIndex } from "../catalog/index.js";
import { _, docComment, literal, name } from "../shared/codegen.js";
import { header } from "./header.js";
import { constStatement, emitSource, importDecl } from "./source.js";

export function emitCatalog(plan: ServerPlan): EmittedFile {
  const index = buildIndex(plan.server);
  const statements = [
    importDecl("@kervan/runtime", ["CatalogIndex"], true),
    constStatement(name("index"), name("CatalogIndex"), _`JSON.parse(${literal(JSON.stringify(index))}) as CatalogIndex`, docComment("The catalog's search index: its operations and the weighted postings of their terms.")),
  ];
  return { path: `${plan.dir}/src/catalog.ts`, contents: emitSource(header(plan.server.origin.file), statements) };
}
