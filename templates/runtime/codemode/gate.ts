// Executions at once per server: `concurrent` run, up to `queue` wait their turn, past that a busy refusal.

export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrent: number,
    private readonly queue: number,
  ) {}

  /** Resolves with a release function when the program may run; undefined when the queue is full. */
  enter(): Promise<() => void> | undefined {
    if (this.running < this.concurrent) {
      this.running++;
      return Promise.resolve(this.release());
    }
    if (this.waiting.length >= this.queue) return undefined;
    return new Promise((resolve) => this.waiting.push(() => resolve(this.release())));
  }

  private release(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }
}
