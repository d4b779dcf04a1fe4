// The annotations lint (KV607) and outputFiles: a shell redirection into the call's own output
// directory ("$KERVAN_OUTPUT_DIR/...") changes nothing outside the call when the tool declares
// outputFiles; any other redirection still counts, and without outputFiles the variable is unset.
import { describe, expect, it } from "vitest";
import { mutation } from "../../../generator/kinds/exec/mutation.js";

const sh = (script: string) => ["sh", "-c", script];

describe("mutation with outputFiles", () => {
  it("does not count a redirection into the output directory", () => {
    expect(mutation(sh('printf x > "$KERVAN_OUTPUT_DIR/a.md" && cat b'), true)).toBeUndefined();
    expect(mutation(sh("echo x >> ${KERVAN_OUTPUT_DIR}/log.txt"), true)).toBeUndefined();
  });
  it("still counts other redirections, and this one without outputFiles", () => {
    expect(mutation(sh('printf x > "$KERVAN_OUTPUT_DIR/a.md"; echo y > /etc/motd'), true)).toContain("redirection");
    expect(mutation(sh('printf x > "$KERVAN_OUTPUT_DIR/../a.md$(id)"'), true)).toContain("redirection");
    expect(mutation(sh('printf x > "$KERVAN_OUTPUT_DIR/../a.md"'), true)).toContain("redirection");
    expect(mutation(sh('printf x > "$KERVAN_OUTPUT_DIR/a.md"'), false)).toContain("redirection");
  });
});
