// Shares one flush among the writes that happened while the previous one ran.
/**
 * Runs one flush at a time (an Elasticsearch refresh); a caller arriving while one runs waits for the
 * next, which starts after its write. So writes that happen together share one flush: group commit.
 */
export class CoalescedFlush {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly flush: () => Promise<void>) {}

  /** Resolves once a flush that started after this call has finished. */
  next(): Promise<void> {
    if (!this.running) return this.start();
    this.queued ??= this.running.catch(() => undefined).then(() => {
      this.queued = null;
      return this.start();
    });
    return this.queued;
  }

  private start(): Promise<void> {
    const run = this.flush().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }
}
