/**
 * A progress line on stderr, only on a terminal and only for work that takes more than a second,
 * so quick commands and CI logs stay clean.
 */
import { isDumbTerminal, type Io } from './io.js';

const DELAY_MS = 1000;
const REFRESH_MS = 250;

/** Whether a run draws the progress line: a terminal on stderr that can rub a line out, unless `-q`. */
export function showsProgress(io: Io, quiet: boolean | undefined): boolean {
  return io.stderrTTY === true && !quiet && !isDumbTerminal(io);
}

export class Progress {
  private label = '';
  private detail = '';
  private shown = false;
  private delay: NodeJS.Timeout | undefined;
  private refresh: NodeJS.Timeout | undefined;
  requests = 0;

  constructor(
    private readonly io: Io,
    private readonly enabled: boolean,
  ) {}

  start(label: string): void {
    this.stop();
    if (!this.enabled) return;
    this.label = label;
    this.detail = '';
    this.delay = setTimeout(() => {
      this.shown = true;
      this.draw();
      this.refresh = setInterval(() => this.draw(), REFRESH_MS);
      this.refresh.unref();
    }, DELAY_MS);
    this.delay.unref();
  }

  update(detail: string): void {
    this.detail = detail;
  }

  /** Counts a finished request (the client calls this for every one). */
  tick(): void {
    this.requests++;
  }

  stop(): void {
    clearTimeout(this.delay);
    clearInterval(this.refresh);
    this.delay = undefined;
    this.refresh = undefined;
    if (this.shown) this.io.stderr('\r\x1b[K');
    this.shown = false;
  }

  private draw(): void {
    const detail = this.detail || `${this.requests} request${this.requests === 1 ? '' : 's'}`;
    this.io.stderr(`\r\x1b[K${this.label}… ${detail}`);
  }
}
