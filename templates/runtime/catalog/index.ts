// @kervan/catalog: the catalog tools and their serving, bundled only into servers with exposure: catalog.
export { catalogTools } from "./tools.js";
export { serveCatalog } from "./serve.js";
export { lazyTool, lazyTools } from "./lazy.js";
