// A bounded, fair queue in front of scarce work: at most `concurrency` tasks run (at most `perKeyConcurrency` of them
// one key's), at most `queueLimit` wait, no key holds more than `perKeyLimit` running and waiting, and waiting tasks
// start in turns between keys, so one key's backlog is its own. A caller that must not be refused (one that has
// waited already, and holds nothing yet) can wait for its key to have room first.

export interface FairGateLimits {
  /** Tasks running at once. */
  concurrency: number;
  /** Tasks waiting at once, over every key. */
  queueLimit: number;
  /** Tasks one key may have running and waiting together. */
  perKeyLimit: number;
  /** Tasks one key may have running at once (all of `concurrency` when absent), so others always find a slot. */
  perKeyConcurrency?: number;
}

/** Why a task was not let in: the whole queue is full, or its key has its share already. */
export class GateRefusal extends Error {
  constructor(readonly reason: 'queue_full' | 'key_full') {
    super(reason === 'queue_full' ? 'the queue is full' : 'this key has its share of the queue');
    this.name = 'GateRefusal';
  }
}

import { KeyedCounts } from './keyed-counts.js';

export class FairGate {
  private running = 0;
  private waitingCount = 0;
  /** Per key: its tasks running and waiting. */
  private readonly held = new KeyedCounts();
  /** Per key: its tasks running. */
  private readonly runningByKey = new KeyedCounts();
  /** Waiting starts per key, in a map whose insertion order is the rotation. */
  private readonly waiting = new Map<string, (() => void)[]>();
  /** Per key: callers waiting for it to hold fewer than perKeyLimit, woken together whenever one of its tasks ends. */
  private readonly roomWaiters = new Map<string, Set<() => void>>();

  constructor(private readonly limits: FairGateLimits) {}

  /** Runs `task` once a slot is free and it is its key's turn; throws GateRefusal at once when it may not wait. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    if (this.held.of(key) >= this.limits.perKeyLimit) throw new GateRefusal('key_full');
    const startsNow = this.mayStart(key) && !this.waiting.has(key);
    if (!startsNow && this.waitingCount >= this.limits.queueLimit) throw new GateRefusal('queue_full');
    this.held.add(key);
    try {
      if (startsNow) this.start(key);
      else await this.enqueue(key);
      try {
        return await task();
      } finally {
        this.finish(key);
      }
    } finally {
      this.held.remove(key);
      this.wakeRoomWaiters(key);
    }
  }

  /**
   * Resolves once `key` holds fewer tasks than its limit, so a run started then is not refused for the key's share
   * (unless others of the key take the room first: the caller tries again). Rejects with `signal`'s reason when it
   * is aborted. What waits here holds no slot and no queue place, only the caller's promise.
   */
  async whenRoom(key: string, signal?: AbortSignal): Promise<void> {
    while (this.held.of(key) >= this.limits.perKeyLimit) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const waiters = this.roomWaiters.get(key) ?? new Set<() => void>();
        this.roomWaiters.set(key, waiters);
        const abandon = () => {
          this.forgetRoomWaiter(key, wake);
          reject(signal!.reason);
        };
        const wake = () => {
          signal?.removeEventListener('abort', abandon);
          resolve();
        };
        waiters.add(wake);
        signal?.addEventListener('abort', abandon, { once: true });
      });
    }
  }

  /** Tasks running and waiting now, for operators' metrics and tests. */
  stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  /** Every caller waiting for room for `key` looks again; those that still find none wait again. */
  private wakeRoomWaiters(key: string): void {
    const waiters = this.roomWaiters.get(key);
    if (!waiters) return;
    this.roomWaiters.delete(key);
    for (const wake of waiters) wake();
  }

  private forgetRoomWaiter(key: string, wake: () => void): void {
    const waiters = this.roomWaiters.get(key);
    waiters?.delete(wake);
    if (waiters?.size === 0) this.roomWaiters.delete(key);
  }

  private mayStart(key: string): boolean {
    return this.running < this.limits.concurrency && this.runningByKey.of(key) < (this.limits.perKeyConcurrency ?? this.limits.concurrency);
  }

  private start(key: string): void {
    this.running++;
    this.runningByKey.add(key);
  }

  private enqueue(key: string): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push(resolve);
      else this.waiting.set(key, [resolve]);
      this.waitingCount++;
    });
  }

  /** Frees the task's slot and hands free slots to waiting tasks of keys in turn, each of which goes to the back. */
  private finish(key: string): void {
    this.running--;
    this.runningByKey.remove(key);
    for (let next = this.nextStartable(); next !== undefined; next = this.nextStartable()) {
      const queue = this.waiting.get(next)!;
      const start = queue.shift()!;
      this.waiting.delete(next);
      if (queue.length > 0) this.waiting.set(next, queue);
      this.waitingCount--;
      this.start(next);
      start();
    }
  }

  /** The first key in turn with a task waiting that may start now; without a per-key concurrency, the first key. */
  private nextStartable(): string | undefined {
    if (this.running >= this.limits.concurrency) return undefined;
    for (const key of this.waiting.keys()) if (this.mayStart(key)) return key;
    return undefined;
  }
}
