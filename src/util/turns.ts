/**
 * One at a time per key: `run(key, work)` starts `work` once every earlier `work` of that key has
 * settled, while work of other keys runs alongside.
 */
export class Turns {
  private readonly last = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.last.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const settled = mine.then(
      () => undefined,
      () => undefined,
    );
    this.last.set(key, settled);
    // The map holds a key only while work of it is queued or running.
    void settled.then(() => {
      if (this.last.get(key) === settled) this.last.delete(key);
    });
    return mine;
  }
}
