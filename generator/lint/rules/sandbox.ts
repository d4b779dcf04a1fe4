// KV612: a tool that runs local commands does so under the operating system's sandbox. Opting out
// (`sandbox: none`, written in the spec since the sandbox is the default) is allowed, and said.
import type { ToolRule } from "../types.js";

export const sandboxRules: ToolRule[] = [
  {
    code: "KV612",
    summary: "a tool that runs local commands runs them under the OS sandbox",
    tool(t, _s, report) {
      if (t.effects.commands.length === 0 || t.effects.confined) return;
      report(
        `tool '${t.name}' runs ${t.effects.commands.join(", ")} without the OS sandbox: the command and its descendants can read, write and connect wherever the server's user can`,
        `${t.pointer}/name`,
        { suggestion: "drop `sandbox: none` (bubblewrap is the default) and name what the command needs with `writable`, `visible` and `network`" },
      );
    },
  },
];
