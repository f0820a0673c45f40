/** At most `size` pieces of work at a time, shared by whoever runs through it; the rest wait in turn. */
export class Slots {
  private free: number;
  private readonly queue: (() => void)[] = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      return await work();
    } finally {
      // The slot goes to the next in line, or back to the pool.
      const next = this.queue.shift();
      if (next) next();
      else this.free++;
    }
  }
}
