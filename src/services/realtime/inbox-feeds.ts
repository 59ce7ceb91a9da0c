// Per-node fan-out of inbox arrivals: one reader per watched inbox follows the inbox's arrival log and hands every
// new message to each local listener (waits and event streams), whichever node captured it.
import type { MessageRecord } from '../../domain/types.js';
import type { EventBus, MessageIndex } from '../../storage/ports.js';

export interface ArrivalListener {
  /** A message stored in the inbox, in log order; `record` is null when it was deleted before it could be read. */
  arrival(seq: number, record: MessageRecord | null): void;
  /** Arrivals were trimmed from the log before this node read them: the listener has missed some. */
  gap(): void;
  /** The node is shutting down: no more arrivals will come. */
  closed(): void;
}

export interface InboxFeedOptions {
  /** Arrivals read (and messages fetched) per round trip. */
  pageSize?: number;
  /**
   * How often a watched inbox's log is read without a wake-up. Wake-ups come from the bus after each capture,
   * and after a bus reconnect; this covers an arrival whose announcement never came (its publish failed, or the
   * cluster's reconciliation completed a capture whose node died), so such a message is late, never missed.
   */
  pollMs?: number;
  /** After a failed read, the next attempt waits this long. */
  retryMs?: number;
}

/** Follows one inbox's arrival log for the listeners of this node. */
class InboxFeed {
  readonly listeners = new Set<ArrivalListener>();
  /** Every arrival after this seq is delivered to every listener registered at the time it is read. */
  private position = 0;
  private reading = false;
  private readAgain = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  readonly ready: Promise<void>;

  constructor(
    private readonly index: MessageIndex,
    readonly workspaceId: string,
    readonly inboxId: string,
    private readonly options: Required<InboxFeedOptions>,
    private readonly onError: (error: unknown) => void,
  ) {
    // The starting point is read after the first listener was added, so nothing after it can be missed.
    this.ready = index.latestArrival(workspaceId, inboxId).then((latest) => {
      this.position = latest;
    });
  }

  /** Reads every arrival past the position and delivers it; a wake-up during a read makes it read once more. */
  async wake(): Promise<void> {
    if (this.stopped) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    try {
      await this.ready;
      do {
        this.readAgain = false;
        await this.readToEnd();
      } while (this.readAgain && this.listeners.size > 0);
    } catch (error) {
      this.onError(error);
      if (!this.stopped) this.retryTimer ??= setTimeout(() => {
        this.retryTimer = null;
        void this.wake();
      }, this.options.retryMs);
    } finally {
      this.reading = false;
    }
  }

  private async readToEnd(): Promise<void> {
    for (;;) {
      const page = await this.index.arrivalsAfter(this.workspaceId, this.inboxId, this.position, this.options.pageSize);
      if (!page.complete) for (const listener of [...this.listeners]) listener.gap();
      if (page.arrivals.length === 0) return;
      const records = new Map((await this.index.getMany(this.workspaceId, page.arrivals.map((a) => a.messageId))).map((r) => [r.id, r]));
      // Delivered in one synchronous run, with the position moved at its end: a listener joining meanwhile
      // (between two event loop turns) sees either all of a page or none of it plus everything after.
      for (const { seq, messageId } of page.arrivals) {
        const record = records.get(messageId) ?? null;
        for (const listener of [...this.listeners]) listener.arrival(seq, record);
      }
      this.position = page.arrivals.at(-1)!.seq;
      if (page.arrivals.length < this.options.pageSize) return;
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }
}

export class InboxFeeds {
  private readonly feeds = new Map<string, InboxFeed>();
  private readonly options: Required<InboxFeedOptions>;
  private unsubscribe: (() => Promise<void>) | null = null;
  private poller: NodeJS.Timeout | null = null;

  constructor(
    private readonly index: MessageIndex,
    private readonly bus: EventBus,
    private readonly onError: (error: unknown, context: string) => void,
    options: InboxFeedOptions = {},
  ) {
    this.options = { pageSize: 500, pollMs: 5000, retryMs: 1000, ...options };
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.bus.subscribe(
      (event) => {
        if (event.type === 'message.received') void this.feeds.get(event.inboxId)?.wake();
      },
      () => this.wakeAll(),
    );
    this.poller = setInterval(() => this.wakeAll(), this.options.pollMs);
    this.poller.unref();
  }

  private wakeAll(): void {
    for (const feed of this.feeds.values()) void feed.wake();
  }

  /**
   * Registers a listener for the inbox's arrivals. Once this resolves, every arrival stored later than the
   * inbox's latest arrival at this moment (MessageIndex.latestArrival read afterwards) reaches the listener.
   * Resolves to the function that removes the listener, which frees the inbox's reader with its last listener.
   */
  async listen(workspaceId: string, inboxId: string, listener: ArrivalListener): Promise<() => void> {
    // Inbox ids are unique across workspaces, and callers have checked the inbox belongs to the workspace.
    let feed = this.feeds.get(inboxId);
    if (!feed) {
      feed = new InboxFeed(this.index, workspaceId, inboxId, this.options, (error) => this.onError(error, `reading the arrivals of inbox ${inboxId}`));
      this.feeds.set(inboxId, feed);
    }
    const joined = feed;
    joined.listeners.add(listener);
    const remove = () => {
      joined.listeners.delete(listener);
      if (joined.listeners.size === 0 && this.feeds.get(inboxId) === joined) {
        joined.stop();
        this.feeds.delete(inboxId);
      }
    };
    try {
      await joined.ready;
    } catch (error) {
      // A feed that could not find its starting point is dropped whole, so the next listener starts a new one.
      joined.stop();
      if (this.feeds.get(inboxId) === joined) this.feeds.delete(inboxId);
      throw error;
    }
    return remove;
  }

  /** Listeners registered on this node, for tests and monitoring. */
  listenerCount(): number {
    let count = 0;
    for (const feed of this.feeds.values()) count += feed.listeners.size;
    return count;
  }

  async close(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    await this.unsubscribe?.();
    for (const feed of this.feeds.values()) {
      feed.stop();
      for (const listener of [...feed.listeners]) listener.closed();
    }
    this.feeds.clear();
  }
}
