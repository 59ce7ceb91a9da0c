// A bounded, fair queue in front of scarce work: at most `concurrency` tasks run, at most `queueLimit` wait, no key
// holds more than `perKeyLimit` of either, and waiting tasks start in turns between keys, so one key's backlog is
// its own.

export interface FairGateLimits {
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks waiting at once, over every key. */
  queueLimit: number;
  /** Tasks one key may have running and waiting together. */
  perKeyLimit: number;
}

/** Why a task was not let in: the whole queue is full, or its key has its share already. */
export class GateRefusal extends Error {
  constructor(readonly reason: 'queue_full' | 'key_full') {
    super(reason === 'queue_full' ? 'the queue is full' : 'this key has its share of the queue');
    this.name = 'GateRefusal';
  }
}

export class FairGate {
  private running = 0;
  private waitingCount = 0;
  /** Per key: its tasks running and waiting. */
  private readonly held = new Map<string, number>();
  /** Waiting starts per key, in a map whose insertion order is the rotation. */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limits: FairGateLimits) {}

  /** Runs `task` once a slot is free and it is its key's turn; throws GateRefusal at once when it may not wait. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const heldByKey = this.held.get(key) ?? 0;
    if (heldByKey >= this.limits.perKeyLimit) throw new GateRefusal('key_full');
    if (this.running >= this.limits.concurrency && this.waitingCount >= this.limits.queueLimit) throw new GateRefusal('queue_full');
    this.held.set(key, heldByKey + 1);
    try {
      if (this.running < this.limits.concurrency) this.running++;
      else await this.enqueue(key);
      try {
        return await task();
      } finally {
        this.startNext();
      }
    } finally {
      const left = (this.held.get(key) ?? 1) - 1;
      if (left === 0) this.held.delete(key);
      else this.held.set(key, left);
    }
  }

  /** Tasks running and waiting now, for operators' metrics and tests. */
  stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  private enqueue(key: string): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push(resolve);
      else this.waiting.set(key, [resolve]);
      this.waitingCount++;
    });
  }

  /** Hands the freed slot to the first waiting task of the next key in turn, which then goes to the back. */
  private startNext(): void {
    const next = this.waiting.entries().next();
    if (next.done) {
      this.running--;
      return;
    }
    const [key, queue] = next.value;
    const start = queue.shift()!;
    this.waiting.delete(key);
    if (queue.length > 0) this.waiting.set(key, queue);
    this.waitingCount--;
    start();
  }
}
