// The system-call filter every sandboxed call runs under (bwrap --seccomp): it keeps setuid and
// setgid files and device nodes out of what the command can write. Inside its user namespace the
// command owns the files it writes, and when the server runs as root "owns" means host root: a
// `chmod 4755` on a copied interpreter would leave a setuid-root program in a writable root, which
// any local user could run outside the sandbox. So a mode with S_ISUID or S_ISGID is refused
// (EPERM) wherever a mode is given: chmod, fchmod, fchmodat, fchmodat2, creat, open and openat
// when they create, mknod and mknodat; mknod of a character or block device is refused as well.
// openat2 (its mode sits behind a pointer the filter cannot read) and io_uring_setup (its
// requests bypass the filter) answer ENOSYS, which programs treat as "not supported here".
// A process of another architecture (a 32-bit program, the x32 ABI) is killed: its system-call
// numbers differ, so the filter could not judge them.
//
// The program is classic BPF over struct seccomp_data {int nr; u32 arch; u64 ip; u64 args[6]},
// little-endian on every architecture listed here, so an argument's low word is at 16 + 8 * i.

const LD_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const AND = 0x54; // BPF_ALU | BPF_AND | BPF_K
const JEQ = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JSET = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET = 0x06; // BPF_RET | BPF_K

const ALLOW = 0x7fff0000;
const KILL_PROCESS = 0x80000000;
const ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

const SET_ID = 0o6000; // S_ISUID | S_ISGID
const S_IFMT = 0o170000;
const S_IFCHR = 0o020000;
const S_IFBLK = 0o060000;
const CREATES = 0o100 | 0o20000000; // O_CREAT | __O_TMPFILE (the same on every architecture here)

interface Arch {
  audit: number;
  /** System calls whose argument `mode` (by index) is a file mode. */
  mode: Record<string, [nr: number, arg: number]>;
  /** open-like calls: [nr, flags argument, mode argument]. */
  open: [number, number, number][];
  /** mknod-like calls: [nr, mode argument]. */
  mknod: [number, number][];
  refused: number[];
  /** Numbers at or above this belong to another ABI (x32). */
  abiLimit?: number;
}

// Numbers from the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl; the generic
// table, include/uapi/asm-generic/unistd.h, for arm64 and riscv64).
const GENERIC = {
  mode: { fchmod: [52, 1], fchmodat: [53, 2], fchmodat2: [452, 2] } as Record<string, [number, number]>,
  open: [[56, 2, 3]] as [number, number, number][],
  mknod: [[33, 2]] as [number, number][],
  refused: [437, 425],
};
const ARCHES: Record<string, Arch> = {
  x64: {
    audit: 0xc000003e,
    mode: { chmod: [90, 1], fchmod: [91, 1], creat: [85, 1], fchmodat: [268, 2], fchmodat2: [452, 2] },
    open: [
      [2, 1, 2],
      [257, 2, 3],
    ],
    mknod: [
      [133, 1],
      [259, 2],
    ],
    refused: [437, 425],
    abiLimit: 0x40000000,
  },
  arm64: { audit: 0xc00000b7, ...GENERIC },
  riscv64: { audit: 0xc00000f3, ...GENERIC },
};

type Insn = { code: number; k: number; jt?: string; jf?: string } | { label: string };

const arg = (i: number) => 16 + 8 * i;

function program(a: Arch): Insn[] {
  const p: Insn[] = [
    { code: LD_ABS, k: 4 },
    { code: JEQ, k: a.audit, jf: "kill" },
    { code: LD_ABS, k: 0 },
  ];
  if (a.abiLimit !== undefined) p.push({ code: JGE, k: a.abiLimit, jt: "kill" });
  for (const nr of a.refused) p.push({ code: JEQ, k: nr, jt: "nosys" });
  for (const [nr, i] of Object.values(a.mode)) p.push({ code: JEQ, k: nr, jt: `mode${i}` });
  for (const [nr, flags, mode] of a.open) p.push({ code: JEQ, k: nr, jt: `open${flags}${mode}` });
  for (const [nr, mode] of a.mknod) p.push({ code: JEQ, k: nr, jt: `mknod${mode}` });
  p.push({ code: RET, k: ALLOW });
  for (const [, flags, mode] of a.open) {
    p.push({ label: `open${flags}${mode}` }, { code: LD_ABS, k: arg(flags) }, { code: JSET, k: CREATES, jt: `mode${mode}` }, { code: RET, k: ALLOW });
  }
  for (const [, mode] of a.mknod) {
    p.push(
      { label: `mknod${mode}` },
      { code: LD_ABS, k: arg(mode) },
      { code: JSET, k: SET_ID, jt: "eperm" },
      { code: AND, k: S_IFMT },
      { code: JEQ, k: S_IFCHR, jt: "eperm" },
      { code: JEQ, k: S_IFBLK, jt: "eperm" },
      { code: RET, k: ALLOW },
    );
  }
  // Jumps go forward only: the mode checks come after the open checks that lead to them.
  for (const i of new Set(Object.values(a.mode).map(([, i]) => i).concat(a.open.map(([, , m]) => m)))) {
    p.push({ label: `mode${i}` }, { code: LD_ABS, k: arg(i) }, { code: JSET, k: SET_ID, jt: "eperm" }, { code: RET, k: ALLOW });
  }
  p.push({ label: "eperm" }, { code: RET, k: ERRNO | EPERM }, { label: "nosys" }, { code: RET, k: ERRNO | ENOSYS }, { label: "kill" }, { code: RET, k: KILL_PROCESS });
  return p;
}

/** Resolves labels into relative jumps and encodes struct sock_filter {u16 code; u8 jt; u8 jf; u32 k}. */
function assemble(p: Insn[]): Buffer {
  const at = new Map<string, number>();
  const insns: Exclude<Insn, { label: string }>[] = [];
  for (const x of p) {
    if ("label" in x) at.set(x.label, insns.length);
    else insns.push(x);
  }
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach((x, n) => {
    const to = (label?: string) => {
      if (label === undefined) return 0;
      const d = at.get(label)! - n - 1;
      if (!(d >= 0 && d < 256)) throw new Error(`seccomp jump to ${label} out of range`);
      return d;
    };
    out.writeUInt16LE(x.code, n * 8);
    out.writeUInt8(to(x.jt), n * 8 + 2);
    out.writeUInt8(to(x.jf), n * 8 + 3);
    out.writeUInt32LE(x.k >>> 0, n * 8 + 4);
  });
  return out;
}

/** The filter for this machine's architecture; throws naming the architecture when there is none. */
export function seccompProgram(arch: string = process.arch): Buffer {
  const a = ARCHES[arch];
  if (!a) throw new Error(`the sandbox's system-call filter (it keeps setuid files and device nodes out of writable roots) exists for ${Object.keys(ARCHES).join(", ")}, not ${arch}`);
  return assemble(program(a));
}
