// Every property in properties/*.ts (each file exports `property`), in file-name order: the one list
// both runners use. A new property is a new file there; nothing else to register.
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { FuzzProperty } from "./property.js";

const DIR = fileURLToPath(new URL("./properties/", import.meta.url));

export async function loadProperties(only?: string): Promise<{ file: string; property: FuzzProperty }[]> {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".ts")).sort();
  const out: { file: string; property: FuzzProperty }[] = [];
  for (const file of files) {
    if (only && !file.includes(only)) continue;
    const mod = (await import(pathToFileURL(DIR + file).href)) as { property?: FuzzProperty };
    if (!mod.property) throw new Error(`test/fuzz/properties/${file} exports no \`property\``);
    out.push({ file, property: mod.property });
  }
  return out;
}
