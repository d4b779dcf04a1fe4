// The http runtime (with JMESPath) must bundle into plain Node code: no eval, no new Function,
// no imports but Node built-ins.
import { describe, expect, it } from "vitest";
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const entry = fileURLToPath(new URL("../../../templates/kinds/http/index.ts", import.meta.url));

describe("bundle", () => {
  it("is self-contained and free of runtime code generation", async () => {
    const out = await build({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", target: "node20", write: false, logLevel: "silent" });
    const code = out.outputFiles[0]!.text;
    expect(code).toContain("TreeInterpreter"); // JMESPath really is inside
    expect(code).not.toMatch(/\beval\s*\(|new\s+Function\s*\(|\bFunction\s*\(\s*["'`]/);
    const imports = [...code.matchAll(/^\s*import\s[^;]*?from\s*["']([^"']+)["']|\brequire\(\s*["']([^"']+)["']\)|\bimport\(\s*["']([^"']+)["']\)/gm)].map((m) => m[1] ?? m[2] ?? m[3]);
    for (const spec of imports) expect(spec).toMatch(/^node:/);
  });

  it("the bundled handler works under plain Node", async () => {
    const out = await build({
      stdin: {
        contents: `import { createHttpHandler, compileSelect } from ${JSON.stringify(entry)};
          const h = createHttpHandler({ tool: "t", method: "GET", origin: "http://127.0.0.1:9", basePath: "", path: [], query: [], headers: [], secrets: [],
            timeoutMs: 1000, maxResponseBytes: 1000, redirects: "none", output: { select: "a", hasSchema: false } }, { select: compileSelect("a.b") });
          export default typeof h;`,
        resolveDir: process.cwd(),
        loader: "ts",
      },
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      write: false,
      logLevel: "silent",
    });
    const mod = await import("data:text/javascript;base64," + Buffer.from(out.outputFiles[0]!.text).toString("base64"));
    expect(mod.default).toBe("function");
  });
});
