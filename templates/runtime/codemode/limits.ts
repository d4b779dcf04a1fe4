// The limits of one `execute` (server.exposure: code), their defaults and the spec keys that set them
// (server.code: {...}). Each is named in the tool error a program gets when it goes past it.

export interface CodeLimits {
  /** Engine time of one program, summed over its slices, checked by QuickJS's interrupt handler. */
  cpuMs: number;
  /** Time from the start of a program to its answer, inner calls included. */
  wallMs: number;
  /** The engine's memory limit for one program. */
  memoryBytes: number;
  /** The engine's stack limit (deep recursion stops here). */
  stackBytes: number;
  /** Inner calls (`api.<operation>(...)`) one program may make. */
  calls: number;
  /** Bytes of console.log output kept from one program. */
  consoleBytes: number;
  /** Bytes of the program's result as JSON. */
  resultBytes: number;
  /** Bytes of one inner call's arguments as JSON. */
  argumentBytes: number;
  /** Programs running at once in this server. */
  concurrent: number;
  /** Programs waiting for a turn; past it `execute` answers busy. */
  queue: number;
}

export const CODE_DEFAULTS: CodeLimits = {
  cpuMs: 1000,
  wallMs: 30_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 256 * 1024,
  calls: 50,
  consoleBytes: 16 * 1024,
  resultBytes: 64 * 1024,
  argumentBytes: 256 * 1024,
  concurrent: 4,
  queue: 16,
};

/** What each limit is called in an error, with its spec key. */
export const LIMIT_NAMES: Record<keyof CodeLimits, string> = {
  cpuMs: "CPU time",
  wallMs: "wall time",
  memoryBytes: "memory",
  stackBytes: "stack depth",
  calls: "inner calls",
  consoleBytes: "console output",
  resultBytes: "result size",
  argumentBytes: "argument size",
  concurrent: "concurrent executions",
  queue: "execution queue",
};

/** The readable sentence for a limit a program went past. */
export function limitMessage(key: keyof CodeLimits, limits: CodeLimits): string {
  return `the ${LIMIT_NAMES[key]} limit (server.code.${key}: ${limits[key]}) was reached`;
}
