// Build progress on stderr. On a terminal, once a build has run for a couple of seconds, one status
// line redrawn in place (stage, server, servers done, tool count, elapsed time); the per-server
// lines print above it. Anywhere else (CI logs, pipes, files) only the plain per-server lines.
import type { StageEvent } from "../pipeline.js";

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function describeStage(e: StageEvent): string {
  switch (e.stage) {
    case "check":
      return `kervan: checking ${plural(e.total, "spec")}`;
    case "lint":
      return `kervan: linting ${plural(e.tools, "tool")} of ${plural(e.total, "server")}`;
    case "emit":
    case "bundle":
      return `kervan: ${e.stage === "emit" ? "emitting" : "bundling"} ${e.server} (server ${e.done + 1} of ${e.total}, ${plural(e.tools, "tool")} in all)`;
    case "write":
      return `kervan: writing ${plural(e.total, "server")}`;
  }
}

export class Progress {
  private readonly tty: boolean;
  private readonly started: number;
  private status = "";
  private shown = false;
  private timer?: ReturnType<typeof setInterval>;

  constructor(
    private readonly out: ProgressStream,
    private readonly delayMs = 2000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tty = out.isTTY === true && process.env.TERM !== "dumb";
    this.started = now();
    if (this.tty) {
      // Redraws the elapsed time while a long stage runs; never keeps the process alive.
      this.timer = setInterval(() => this.draw(), 250);
      this.timer.unref();
    }
  }

  stage(event: StageEvent): void {
    this.status = describeStage(event);
    this.draw();
  }

  /** A plain line, printed above the status line on a terminal. */
  line(text: string): void {
    this.clear();
    this.out.write(text + "\n");
    this.draw();
  }

  end(): void {
    if (this.timer) clearInterval(this.timer);
    this.clear();
  }

  private draw(): void {
    const elapsed = this.now() - this.started;
    if (!this.tty || !this.status || elapsed < this.delayMs) return;
    this.out.write(`\r\x1b[K${this.status} ${(elapsed / 1000).toFixed(0)} s`);
    this.shown = true;
  }

  private clear(): void {
    if (!this.shown) return;
    this.out.write("\r\x1b[K");
    this.shown = false;
  }
}
