// Bounds the name lookups a kind of outbound request has in flight. Node resolves names with getaddrinfo on libuv's
// small thread pool (4 threads), which also runs file system calls such as the WAL's fdatasync that every embedded
// capture waits for; getaddrinfo cannot be cancelled, so a name server that answers slowly holds its thread for the
// resolver's whole timeout. Links in a stranger's email name any servers they like, so their lookups get a few threads at most.
import type { LookupFunction } from 'node:net';

export class LookupGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /**
   * `lookup`, run once fewer than `limit` lookups through this gate are running. A lookup still waiting when
   * `abandoned()` says its request is over (timed out, aborted) is dropped: nobody waits for its answer.
   */
  wrap(lookup: LookupFunction, abandoned: () => boolean): LookupFunction {
    return (hostname, options, callback) => this.enter(() => {
      if (abandoned()) return this.leave();
      const finished = ((...answer: unknown[]) => {
        this.leave();
        (callback as (...answer: unknown[]) => void)(...answer);
      }) as typeof callback;
      lookup(hostname, options, finished);
    });
  }

  private enter(start: () => void): void {
    if (this.running < this.limit) {
      this.running++;
      start();
    } else {
      this.waiting.push(start);
    }
  }

  /** Hands the freed slot to the next waiting lookup, if any. */
  private leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
