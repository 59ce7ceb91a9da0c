// How many of something each key holds now (a workspace's waits, an address's connections, a receiver's attempts);
// a key that holds none is forgotten, so keys that come and go cost no memory.
export class KeyedCounts {
  private readonly counts = new Map<string, number>();

  of(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.counts.set(key, this.of(key) + 1);
  }

  remove(key: string): void {
    const left = this.of(key) - 1;
    if (left <= 0) this.counts.delete(key);
    else this.counts.set(key, left);
  }

  /** Every key holding one or more, with its count. */
  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }

  values(): IterableIterator<number> {
    return this.counts.values();
  }
}
