// Entry for servers whose spec keeps tasks in files (bundled only into those).
export { openFileStore } from "../file-store.js";
