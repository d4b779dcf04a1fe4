// The plan decides every output path and identifier once (generator/plan.ts): tool names that give
// the same file name, even only in case (macOS and Windows file systems), or the same type name, are
// told apart by a number; output types and validators exist only for tools with an output schema;
// the package root is the project's place seen from the server's folder.
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { planServer } from "../../generator/plan.js";
import { PROJECT_ROOT } from "../../generator/paths.js";
import type { ServerIR } from "../../generator/model/ir.js";

const server = (tools: { name: string; outputSchema?: object }[]) => ({ name: "planned", tools }) as unknown as ServerIR;

describe("plan", () => {
  it("gives colliding tool names distinct files and types, case-insensitively", () => {
    const plan = planServer(server([{ name: "read-file" }, { name: "read_file" }, { name: "Read_File" }, { name: "list" }]), { outRoot: "out" });
    expect(plan.tools.map((t) => t.file)).toEqual(["src/tools/read_file.ts", "src/tools/read_file_2.ts", "src/tools/Read_File_3.ts", "src/tools/list.ts"]);
    expect(plan.tools.map((t) => t.importPath)).toEqual(["./tools/read_file.js", "./tools/read_file_2.js", "./tools/Read_File_3.js", "./tools/list.js"]);
    expect(plan.tools.map((t) => t.inputType)).toEqual(["ReadFileInput", "ReadFile_2Input", "ReadFile_3Input", "ListInput"]);
    expect(plan.tools.map((t) => t.validateInput)).toEqual(["validate_read_file_input", "validate_read_file_2_input", "validate_Read_File_3_input", "validate_list_input"]);
  });

  it("names an output type and validator only for a tool with an output schema", () => {
    const [withOut, without] = planServer(server([{ name: "a", outputSchema: { type: "object" } }, { name: "b" }]), { outRoot: "out" }).tools;
    expect(withOut).toMatchObject({ outputType: "AOutput", validateOutput: "validate_a_output" });
    expect(without).not.toHaveProperty("outputType");
    expect(without).not.toHaveProperty("validateOutput");
  });

  it("puts the server in a folder of its name, the package root relative to it with forward slashes", () => {
    for (const outRoot of ["out", "build/servers"]) {
      const plan = planServer(server([]), { outRoot });
      expect(plan.dir).toBe("planned");
      expect(plan.packageRoot).toBe(relative(join(resolve(outRoot), "planned"), PROJECT_ROOT).split("\\").join("/") || ".");
      expect(plan.packageRoot).not.toContain("\\");
    }
    expect(planServer(server([]), { outRoot: "out" }).packageRoot).toBe("../..");
  });
});
