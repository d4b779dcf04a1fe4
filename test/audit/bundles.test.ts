// Every bundle in out/ is plain Node code that can do no more than its manifest (and AUDIT.md)
// declares: no eval or new Function, imports of Node built-ins only, dynamic imports of literal
// built-ins or relative paths, and only the declared hosts, commands and environment variables.
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import type { Manifest } from "../../generator/audit/types.js";
import { capabilitiesOf } from "../../generator/audit/capabilities.js";
import { shellUse } from "../../generator/shared/shells.js";
import { embeddedWasm, withoutWasm, GLUE_IMPORTS, GLUE_REQUIRES, glueRequires } from "../codemode/engine-glue.js";

const OUT = "out";
const servers = readdirSync(OUT).filter((d) => existsSync(join(OUT, d, "kervan.manifest.json"))).sort();
const all = (code: string, re: RegExp) => [...code.matchAll(re)].map((m) => m[1]);
const strings = (list: string) => all(list, /"([^"]*)"/g);
const BUILTINS = new Set(builtinModules);

// Reads of the environment the runtime makes with a name taken from a tool's emitted config:
// exec's child environment (PATH plus env.pass), http's secrets and origin override.
// The runtime's own serving settings (SERVING_ENV) and bearer token variables read the same way.
const DYNAMIC_ENV_READS = ["process.env[name]", "env[cfg.originEnv]", "env[s.env]", "env[name]"];

describe("bundles in out/", () => {
  it("there are bundles to check", () => expect(servers.length).toBeGreaterThanOrEqual(5));

  for (const server of servers) {
    describe(server, () => {
      const main = readFileSync(join(OUT, server, "server.mjs"), "utf8");
      const manifest: Manifest = JSON.parse(readFileSync(join(OUT, server, "kervan.manifest.json"), "utf8"));
      // A catalog's chunk files (loaded on first use) are part of the bundle: every check reads them too.
      const chunks = Object.keys(manifest.bundle.chunks ?? {});
      // The scans read the code; the one embedded WebAssembly module (code mode) is checked on its own.
      const code = [withoutWasm(main), ...chunks.map((c) => readFileSync(join(OUT, server, c), "utf8"))].join("\n");
      const chunkOf = (spec: string) => chunks.some((c) => spec === `./${c}` || spec === `./${c.slice("chunks/".length)}`);
      const audit = readFileSync(join(OUT, server, "AUDIT.md"), "utf8");
      const caps = manifest.capabilities!;
      // Only a code-mode bundle carries the QuickJS engine's glue and its WebAssembly module.
      const engine = manifest.server.code;

      it("declares capabilities that are the union of its tools' effects", () => {
        for (const t of manifest.tools) expect(t.effects, t.name).toBeDefined();
        expect(caps).toEqual(capabilitiesOf(manifest.tools));
      });

      it("is the bundle the manifest and AUDIT.md name", () => {
        const sha = createHash("sha256").update(main).digest("hex");
        expect(manifest.bundle.sha256).toBe(sha);
        expect(audit).toContain(sha);
        for (const c of chunks) expect(manifest.bundle.chunks![c], c).toBe(createHash("sha256").update(readFileSync(join(OUT, server, c))).digest("hex"));
      });

      it("generates no code at run time", () => {
        expect(code).not.toMatch(/(?<![\w$.])eval\s*\(|new\s+Function\s*\(|(?<![\w$.])Function\s*\(\s*["'`]/);
      });

      it("imports Node built-ins only", () => {
        const statics = all(code, /^\s*(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']/gm).concat(all(code, /^\s*import\s*["']([^"']+)["']/gm));
        const builtins = statics.filter((spec) => !chunkOf(spec));
        for (const spec of builtins) expect(spec, spec).toMatch(/^node:/);
        for (const spec of builtins) expect(BUILTINS.has(spec.slice(5)), spec).toBe(true);
        // esbuild's __require shim is never handed a package name.
        expect(all(code, /(?<!['"\w$.])require\(\s*([^)]*)\)/g)).toEqual([]);
        // The engine glue's own require loads exactly its three built-ins, and only in code mode.
        expect(glueRequires(code)).toEqual(engine ? GLUE_REQUIRES : []);
      });

      it("imports dynamically only literal built-ins or relative paths (and, in code mode, the engine glue's `module`)", () => {
        const args = all(code, /(?<![\w$.])import\s*\(\s*([^)]*)\)/g);
        const glue = args.filter((a) => GLUE_IMPORTS.includes(a));
        expect(glue).toEqual(engine ? GLUE_IMPORTS : []);
        for (const arg of args.filter((a) => !GLUE_IMPORTS.includes(a))) {
          expect(arg, arg).toMatch(/^["'](node:[a-z_/]+|\.\.?\/[^"']*)["']$/);
        }
      });

      it("embeds exactly the WebAssembly module the manifest records, and only in code mode", () => {
        const modules = embeddedWasm(main);
        if (!engine) return expect(modules).toEqual([]);
        expect(modules).toEqual([{ sha256: engine.wasm.sha256, valid: true }]);
        expect(audit).toContain(engine.wasm.sha256);
      });

      it("contacts only the declared hosts", () => {
        const hosts = new Set(all(code, /https?:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)+)/g));
        hosts.delete("127.0.0.1"); // the --http listener's own address, in usage text
        expect([...hosts].sort()).toEqual(caps.hosts);
        for (const host of caps.hosts) expect(audit).toContain(`\`${host}\``);
      });

      it("runs only the declared commands, without a shell of its own", () => {
        const commands = [...new Set(all(code, /tool:\s*"[^"]+",\s*argv:\s*\[\s*\[\s*"([^"]*)"/g))].sort();
        expect(commands).toEqual(caps.commands);
        const childProcess = all(code, /^\s*import\s*\{([^}]*)\}\s*from\s*["']node:child_process["']/gm);
        // spawn runs the commands; spawnSync only the sandbox's startup probe (bwrap with `true`).
        if (commands.length) expect(childProcess.map((s) => s.trim()).sort()).toEqual(["spawn", "spawnSync"]);
        else expect(code).not.toMatch(/node:child_process/);
        expect(code).not.toMatch(/shell:\s*true/);
        for (const c of caps.commands) expect(audit).toContain(`\`${c}\``);
      });

      it("runs a shell or an inline script only where the tool's effects say so", () => {
        // Each emitted exec config in the bundle: its tool name and its literal argv.
        let seen = 0;
        for (const m of code.matchAll(/tool:\s*"([^"]+)",\s*argv:\s*(\[\s*\[[\s\S]*?\]\s*\]),\s*fields:/g)) {
          // The literal as plain data (a literal of strings and { field } objects, read by the VM).
          // An entry is one argument, or a conditional group { if, argv } of arguments.
          const literal = runInNewContext(`(${m[2]})`, {}, { timeout: 1000 }) as ((string | object)[] | { argv: (string | object)[][] })[];
          const args = literal.flatMap((e) => (Array.isArray(e) ? [e] : e.argv));
          const argv = args.map((arg) => arg.map((p) => (typeof p === "string" ? p : "{}")).join(""));
          const tool = manifest.tools.find((t) => t.name === m[1])!;
          expect(tool.effects!.shell, m[1]).toBe(shellUse(argv) !== undefined);
          expect(caps.shellTools.includes(m[1]), m[1]).toBe(tool.effects!.shell);
          seen++;
        }
        // Every tool that runs a command was found in the bundle.
        expect(seen).toBe(manifest.tools.filter((t) => t.effects!.commands.length).length);
      });

      it("reads only the declared environment variables", () => {
        const statics = [...all(code, /process\.env\.([A-Za-z_][A-Za-z0-9_]*)/g), ...all(code, /process\.env\[\s*["']([^"']+)["']\s*\]/g)];
        expect(statics).toEqual([]);
        const dynamic = all(code, /((?:process\.)?env\[(?!\s*["'])[^\]]+\])(?!\s*=[^=])/g);
        for (const site of dynamic) expect(DYNAMIC_ENV_READS, site).toContain(site);
        // The names those sites read come from the emitted configs.
        const named = [
          ...all(code, /pass:\s*\[([^\]]*)\]/g).flatMap(strings),
          ...all(code, /secrets:\s*\[([^\]]*)\]/g).flatMap((s) => all(s, /env:\s*"([^"]+)"/g)),
          ...all(code, /originEnv:\s*"([^"]+)"/g),
          ...all(code, /PROXY_ENV = \[([^\]]*)\]/g).flatMap(strings),
          ...(code.includes('["PATH", ...') ? ["PATH"] : []),
        ];
        expect([...new Set(named)].sort()).toEqual(caps.env);
        for (const name of caps.env) expect(audit).toContain(`\`${name}\``);
        // The runtime's serving variables, read only with --http, are named in AUDIT.md too.
        const serving = all(code, /SERVING_ENV = \[([^\]]*)\]/g).flatMap(strings);
        expect(serving).toContain("KERVAN_AUTH");
        for (const name of serving) expect(audit).toContain(`\`${name}\``);
        // Tasks and confirmations read their own listed variables, named in AUDIT.md where bundled.
        const tasks = all(code, /TASKS_ENV = \[([^\]]*)\]/g).flatMap(strings);
        if (manifest.tools.some((t) => t.task || t.confirm)) expect(tasks).toContain("KERVAN_STATE_KEY");
        for (const name of tasks) expect(audit).toContain(`\`${name}\``);
      });
    });
  }
});
