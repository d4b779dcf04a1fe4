// Public entry of the runtime (esbuild alias @kervan/runtime): emitted server entries call runServer(def).
export { runServer } from "./server.js";
export { onShutdown } from "./shutdown.js";
export { clipText, quoteValue } from "./clip.js";
export { StartupError } from "./types.js";
export type {
  CallContext,
  ContentBlock,
  Era,
  Json,
  ServerDef,
  ToolAnnotations,
  ToolDef,
  ToolHandler,
  ToolOutcome,
  ValidationError,
  Validator,
} from "./types.js";
export type { CatalogIndex } from "./catalog/types.js";
