// @kervan/codemode: the code-mode tools and their serving, bundled only into servers with exposure: code.
export { codeTools } from "./tools.js";
export { serveCode, type CodeDef } from "./serve.js";
