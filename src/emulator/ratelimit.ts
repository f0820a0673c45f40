/** Token bucket: `rate` tokens per second, burst `max(1, rate)`. */
export class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly capacity: number;

  constructor(
    private readonly rate: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = Math.max(1, rate);
    this.tokens = this.capacity;
    this.last = now();
  }

  /** Takes one token; false when the bucket is empty (the request is over the limit). */
  take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.last) / 1000) * this.rate);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until the next token (after a `take` that failed): what a Retry-After should say. */
  msToNext(): number {
    return this.tokens >= 1 ? 0 : ((1 - this.tokens) / this.rate) * 1000;
  }
}
