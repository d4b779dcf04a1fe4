// The escape corpus: each case is one exec tool of the test server, run under the sandbox with
// the project's policy (allow ".", deny .env, .git, config/secrets.env and late-secrets, writable out/), and what must hold after it.
import type { ExecToolConfig, SandboxConfig } from "../../templates/kinds/exec/index.js";

export type Check =
  | "reads-nothing" // no secret token, no outside name in stdout or stderr
  | "reads-nothing-sees-visible" // the same, and the visible token was read
  | "writes-nothing" // no file outside out/ and /tmp changed on the host
  | "no-connection" // the loopback listener saw no connection
  | "gone-after-timeout" // the marked descendant existed, and is gone after the call timed out
  | "gone-after-cancel" // the same, after the call was cancelled
  | "gone-after-exit" // the same, after the command exited on its own
  | "fork-bomb" // stopped at the process limit; the server still answers; nothing left running
  | "file-size" // a write past the file size limit stops at the limit
  | "cpu-time" // a CPU burner is stopped by the CPU limit before the timeout
  | "stays-put" // the denied file is still where it was on the host (its folder was not renamed)
  | "no-privileged-files" // no setuid/setgid file and no device node in the writable roots on the host
  | "unprivileged" // the command's uid is not 0, it holds no capability, no-new-privileges is set
  | "run-later-untouched" // the run-later paths are unchanged on the host, and none was left created
  | "memory-bounded" // an allocation past the memory limit fails, and the server still answers
  | "tmp-bounded"; // a /tmp write stops at the /tmp size

export interface Case {
  name: string;
  check: Check;
  argv: string[];
  /** A marker in a descendant's argv (`sleep <marker>`), for the process cases. */
  marker?: string;
  sandbox?: Partial<SandboxConfig>;
  timeoutMs?: number;
}

const sh = (script: string) => ["sh", "-c", script];
const LISTENER = "require('net').connect(+process.env.ESCAPE_PORT,'127.0.0.1').on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',(e)=>{console.log('refused: '+e.code);process.exit(3)})";

export const CASES: Case[] = [
  { name: "grep -r the project", check: "reads-nothing-sees-visible", argv: ["grep", "-rn", "tok-", "."] },
  { name: "grep -r the parent", check: "reads-nothing", argv: ["grep", "-rn", "tok-", ".."] },
  { name: "grep -r from /", check: "reads-nothing", argv: ["grep", "-rns", "--exclude-dir=proc", "--exclude-dir=sys", "--exclude-dir=usr", "--exclude-dir=dev", "tok-", "/"] },
  { name: "grep -rR following symlinks", check: "reads-nothing-sees-visible", argv: ["grep", "-Rn", "tok-", "."] },
  { name: "find the parent, /tmp, /home, /root", check: "reads-nothing", argv: ["find", "..", "/tmp", "/home", "/root", "/etc", "-maxdepth", "5"] },
  { name: "tar the project, dereferencing links", check: "reads-nothing-sees-visible", argv: ["tar", "-chf", "-", "."] },
  { name: "tar the parent", check: "reads-nothing", argv: ["tar", "-cf", "-", ".."] },
  { name: "cp -r then read the copies", check: "reads-nothing-sees-visible", argv: sh("cp -rL . /tmp/a; cp -r .. /tmp/b; cp -r .git /tmp/c; grep -rn tok- /tmp/a /tmp/b /tmp/c") },
  { name: "cat through the symlinks", check: "reads-nothing", argv: ["cat", "link-file", "link-dir/secret.txt", "src/env-link", ".env", ".git/config"] },
  { name: "cat absolute paths outside", check: "reads-nothing", argv: sh('cat "$ESCAPE_ROOT/outside.txt" "$ESCAPE_ROOT/sibling-project/secret.txt" /etc/shadow') },
  { name: "ls of the parent and /", check: "reads-nothing", argv: sh("ls -laR ..; ls -la / /tmp") },
  { name: "the home directory", check: "reads-nothing", argv: sh('ls -la "$HOME" "$HOME/.ssh"; cat "$HOME/.ssh/id_ed25519"') },
  { name: "the server's environment through /proc", check: "reads-nothing", argv: sh("cat /proc/*/environ /proc/1/cmdline; ls /proc") },
  { name: "cat hard links to denied files", check: "reads-nothing", argv: ["cat", "src/notes.txt", "settings.ini"] },
  { name: "hard links made after startup", check: "reads-nothing", argv: sh("cat src/late-link src/late-key; grep -rn tok- src") },
  { name: "a denied path created after startup", check: "reads-nothing", argv: sh("cat late-secrets/key.txt; grep -rn tok- late-secrets") },
  {
    name: "writes outside the writable roots",
    check: "writes-nothing",
    argv: sh(
      'echo tok-write > ../sibling-project/new.txt; echo tok-write > src/new.txt; echo tok-write >> .env; echo tok-write > .git/new; echo tok-write > "$HOME/new"; echo tok-write > "$ESCAPE_ROOT/new"; rm -rf src .git .env; mv link-dir moved; echo ok > out/ok.txt; echo ok > /tmp/t && cat /tmp/t',
    ),
  },
  { name: "connect to a listener on 127.0.0.1", check: "no-connection", argv: ["node", "-e", LISTENER] },
  { name: "setsid descendant after a timeout", check: "gone-after-timeout", marker: "61.01", argv: sh("setsid sleep 61.01 & sleep 60"), timeoutMs: 1500 },
  { name: "double fork after a timeout", check: "gone-after-timeout", marker: "62.02", argv: sh("(sleep 62.02 &) ; sleep 60"), timeoutMs: 1500 },
  { name: "setsid descendant after a cancellation", check: "gone-after-cancel", marker: "63.03", argv: sh("setsid sleep 63.03 & sleep 60") },
  { name: "double fork after a cancellation", check: "gone-after-cancel", marker: "64.04", argv: sh("(sleep 64.04 &) ; sleep 60") },
  { name: "setsid descendant after a normal exit", check: "gone-after-exit", marker: "65.05", argv: sh("setsid sleep 65.05 & sleep 0.2; echo done") },
  { name: "fork bomb", check: "fork-bomb", argv: sh("bomb() { bomb | bomb & }; bomb; sleep 2"), sandbox: { processes: 64 }, timeoutMs: 8000 },
  { name: "a file past the size limit", check: "file-size", argv: sh("head -c 3000000 /dev/zero > out/big; ls -l out/big"), sandbox: { fileSizeBytes: 1000000 } },
  { name: "a CPU burner", check: "cpu-time", argv: sh("while :; do :; done"), sandbox: { cpuSeconds: 1 }, timeoutMs: 30000 },
  // A mask is a mount on a path; renaming its folder (one call) would leave the next call's mask nowhere.
  { name: "rename the folder of a denied file", check: "stays-put", argv: sh("mv config config.old; mv config/secrets.env moved.env; ls"), sandbox: { writable: ["."] } },
  { name: "read the denied file from the renamed folder", check: "reads-nothing", argv: sh("cat config.old/secrets.env config/secrets.env moved.env"), sandbox: { writable: ["."] } },
  {
    name: "plant a setuid or setgid program",
    check: "no-privileged-files",
    argv: sh(
      "cp /bin/sh out/rootsh; chmod 4755 out/rootsh; chmod 2755 out/rootsh; chmod u+s,g+s out/rootsh; cp -p /bin/sh out/rootsh2; install -m 6755 /bin/sh out/rootsh3; node -e \"require('fs').openSync('out/rootsh4','w',0o4755)\"; ls -l out",
    ),
  },
  { name: "make device nodes", check: "no-privileged-files", argv: sh("mknod out/null c 1 3; mknod out/sda b 8 0; mknod out/fifo p; ls -l out") },
  { name: "the command's privileges", check: "unprivileged", argv: sh("id -u; grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status") },
  {
    name: "plant run-later code in a writable root",
    check: "run-later-untouched",
    argv: sh(
      "echo evil > .vscode/tasks.json; rm -rf .vscode; mv .vscode vs; echo evil > node_modules/.bin/tool; mv node_modules nm; mkdir -p node_modules/.bin; echo evil > node_modules/.bin/new; echo evil > .envrc; mkdir -p .husky/_; echo evil > .husky/_/h; ls -a",
    ),
    sandbox: { writable: ["."] },
  },
  { name: "allocate past the memory limit", check: "memory-bounded", argv: ["node", "-e", "Buffer.alloc(1500*1024*1024, 1); console.log('allocated')"], sandbox: { memoryBytes: 768 * 1024 * 1024 } },
  { name: "fill /tmp past its size", check: "tmp-bounded", argv: sh("head -c 200000000 /dev/zero > /tmp/fill; wc -c < /tmp/fill"), sandbox: { tmpBytes: 64 * 1024 * 1024 } },
];

/** The positive control: the same connection with network on must get through (the harness can see one). */
export const NETWORK_CONTROL: Case = { name: "control: network: true connects", check: "no-connection", argv: ["node", "-e", LISTENER], sandbox: { network: true } };

/** The documented reach of `network: true`: a host abstract unix socket (it lives in the network namespace, not the filesystem). */
const ABSTRACT = "require('net').connect('\\0'+process.env.ESCAPE_ABSTRACT).on('connect',()=>{console.log('CONNECTED');process.exit(0)}).on('error',(e)=>{console.log('refused: '+e.code);process.exit(3)})";
export const ABSTRACT_CONTROL: Case = { name: "control: network: true reaches an abstract socket", check: "no-connection", argv: ["node", "-e", ABSTRACT], sandbox: { network: true } };
export const ABSTRACT_OFFLINE: Case = { name: "an abstract unix socket of the host", check: "no-connection", argv: ["node", "-e", ABSTRACT] };

export const toolName = (c: Case) => c.name.replace(/[^a-zA-Z0-9]+/g, "_").replace(/^_|_$/g, "").slice(0, 60);

/** The exec config of one case: the project policy every case shares, plus the case's own. */
export function caseConfig(c: Case): ExecToolConfig {
  return {
    tool: toolName(c),
    argv: c.argv.map((a) => [a]),
    fields: {},
    env: { pass: ["HOME", "ESCAPE_ROOT", "ESCAPE_PORT", "ESCAPE_ABSTRACT"] },
    timeoutMs: c.timeoutMs ?? 20_000,
    killGraceMs: 200,
    maxOutputBytes: 4 * 1024 * 1024,
    paths: { fields: [], allow: ["."], deny: [".env", ".git", "config/secrets.env", "late-secrets"] },
    sandbox: { mode: "bubblewrap", writable: ["out"], ...c.sandbox },
  };
}
