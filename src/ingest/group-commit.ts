// Batches work that arrives while a write is under way, so captures finishing together share one write.

interface Pending<T, R> {
  item: T;
  weight: number;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * One flush at a time. An item submitted while nothing is being written is written at once, alone, so a lone
 * capture waits for nothing; items submitted during a flush queue up and go together in the next one. A batch
 * stops at `maxItems` or once its weight (bytes) passes `maxWeight`, so one flush stays bounded.
 */
export class GroupCommit<T, R> {
  private readonly queue: Pending<T, R>[] = [];
  private flushing = false;

  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    private readonly limits: { maxItems: number; maxWeight: number; weigh: (item: T) => number },
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, weight: this.limits.weigh(item), resolve, reject });
      if (!this.flushing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.take();
      try {
        const results = await this.flush(batch.map((pending) => pending.item));
        batch.forEach((pending, index) => pending.resolve(results[index]!));
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    this.flushing = false;
  }

  private take(): Pending<T, R>[] {
    let count = 0;
    let weight = 0;
    while (count < this.queue.length && count < this.limits.maxItems && (count === 0 || weight < this.limits.maxWeight)) {
      weight += this.queue[count]!.weight;
      count++;
    }
    return this.queue.splice(0, count);
  }
}
