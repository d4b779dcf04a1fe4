// Per-tool admission: a sliding-window rate limit and a bounded FIFO of calls waiting for a slot.

/** At most `calls` admissions in any window of `windowMs` ms (a sliding log: no double burst at a window edge). */
export class RateLimiter {
  private readonly starts: number[] = [];
  constructor(
    private readonly calls: number,
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Admits and returns 0, or returns the ms until the next admission is possible. */
  admit(): number {
    const t = this.now();
    while (this.starts.length > 0 && t - this.starts[0] >= this.windowMs) this.starts.shift();
    if (this.starts.length >= this.calls) return Math.max(1, Math.ceil(this.starts[0] + this.windowMs - t));
    this.starts.push(t);
    return 0;
  }
}

export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
}

/**
 * `size` slots; up to `queue` callers wait in FIFO order. Waiting is bounded by the caller's
 * own deadline/abort (see `acquire`), so a queued call never outlives its timeout.
 */
export class Slots {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  constructor(
    private readonly size: number,
    private readonly queue: number,
  ) {}

  get busy(): number {
    return this.running;
  }

  /** Whether a new caller would run or wait (rather than be refused). */
  canAdmit(): boolean {
    return this.running < this.size || this.waiting.length < this.queue;
  }

  /**
   * Resolves with a release function once a slot is free, or with why the caller stopped waiting
   * (its time budget ran out, or it was aborted). Call only after `canAdmit()` returned true.
   */
  acquire(timeoutMs: number, signal: AbortSignal): Promise<Release | "timeout" | "abort"> {
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const leave = (why: "timeout" | "abort") => {
        const i = this.waiting.indexOf(waiter);
        if (i < 0) return;
        this.waiting.splice(i, 1);
        settle();
        resolve(why);
      };
      const onAbort = () => leave("abort");
      const timer = setTimeout(() => leave("timeout"), timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      const waiter: Waiter = {
        grant: (release) => {
          settle();
          resolve(release);
        },
      };
      this.waiting.push(waiter);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  private releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      // Hand the slot straight to the next waiter so a newcomer cannot jump the queue.
      if (next) next.grant(this.releaser());
      else this.running--;
    };
  }
}
